import { storedProjection } from '../../src/resolve/stored-projection';
import { validModel } from '../sdl/helpers';

const model = validModel(`
type Task {
  id: ID!
  title: String!
  note: String @dgraph(pred: "Task.note")
  user: User!
  tags: [Tag]
  comments: [Comment] @hasInverse(field: task)
  label: String @lambda
}

type User {
  username: String! @id
  tasks: [Task] @hasInverse(field: user)
}

type Tag {
  name: String! @id
}

type Comment {
  text: String
  task: Task
}

extend type Product @key(fields: "id") {
  id: ID! @external
  price: Int @external
  tax: Int @requires(fields: "price") @lambda
  stock: Int
}
`);

describe('storedProjection: the stored fields a selection reads from a child object', () => {
  it.each<[string, string, string[], Record<string, 1> | undefined]>([
    ['scalars by their stored name', 'Task', ['title', 'note'], { title: 1, 'Task%2Enote': 1 }],
    ['the ID and __typename read nothing beyond _id', 'Task', ['id', '__typename'], {}],
    ['a relation stored on this side reads its edge', 'Task', ['user', 'tags'], { user: 1, tags: 1 }],
    ['an aggregate of a stored relation reads the edge', 'Task', ['tagsAggregate'], { tags: 1 }],
    ['a derived relation and its aggregate read nothing', 'Task', ['comments', 'commentsAggregate', 'title'], { title: 1 }],
    ['a derived relation seen from the other side', 'User', ['username', 'tasks'], { username: 1 }],
    ['a lambda field needs the whole document', 'Task', ['title', 'label'], undefined],
    ['an unknown name needs the whole document', 'Task', ['title', 'titleAggregate'], undefined],
    ['a field another service owns needs the whole document', 'Product', ['stock', 'price'], undefined],
    ['a @requires field needs the whole document', 'Product', ['tax'], undefined],
    ['a field of an extended type kept here', 'Product', ['id', 'stock'], { stock: 1 }],
  ])('%s', (_label, typeName, selected, expected) => {
    expect(storedProjection(model, model.types.get(typeName)!, selected)).toEqual(expected);
  });
});
