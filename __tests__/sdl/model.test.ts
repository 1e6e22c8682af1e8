import { buildSchemaModel } from '../../src/sdl/build.js';
import { fieldOf, typeOf, validModel } from './helpers.js';

const TASKS = `type Task {
  id: ID!
  title: String! @search(by: [fulltext])
  completed: Boolean! @search
  user: User!
}

type User {
  username: String! @id @search(by: [hash])
  name: String
  tasks: [Task] @hasInverse(field: user)
}
`;

describe('the Task/User schema (spec 5.3 item 5)', () => {
  const model = validModel(TASKS);

  it('keeps the source text exactly and lists the types in order', () => {
    expect(model.source).toBe(TASKS);
    expect([...model.types.keys()]).toEqual(['Task', 'User']);
    expect(model.customQueries).toEqual([]);
    expect(model.customMutations).toEqual([]);
    expect(model.authorization).toBeUndefined();
  });

  it('describes Task field by field', () => {
    const task = typeOf(model, 'Task');
    expect(task.kind).toBe('type');
    expect(task.fields.map((field) => field.name)).toEqual(['id', 'title', 'completed', 'user']);
    expect(task.idField?.name).toBe('id');
    expect(task.extended).toBe(false);
    expect(task.key).toBeUndefined();
    expect(task.loc).toEqual({ line: 1, column: 6 });
    expect(fieldOf(model, 'Task', 'id')).toMatchObject({
      typeText: 'ID!', namedType: 'ID', of: { kind: 'scalar', scalar: 'ID' }, nonNull: true, list: false, isIdField: true, search: [],
    });
    expect(fieldOf(model, 'Task', 'title')).toMatchObject({ of: { kind: 'scalar', scalar: 'String' }, search: ['fulltext'], loc: { line: 3, column: 3 } });
    expect(fieldOf(model, 'Task', 'completed').search).toEqual(['bool']);
  });

  it('stores Task.user and derives User.tasks, with inverse set both ways', () => {
    expect(fieldOf(model, 'Task', 'user')).toMatchObject({
      of: { kind: 'relation', target: 'User' }, list: false, storedHere: true, inverse: { type: 'User', field: 'tasks' },
    });
    expect(fieldOf(model, 'Task', 'user').hasInverse).toBeUndefined();
    expect(fieldOf(model, 'User', 'tasks')).toMatchObject({
      typeText: '[Task]', list: true, itemNonNull: false, hasInverse: 'user', storedHere: false, inverse: { type: 'Task', field: 'user' },
    });
  });

  it('marks username as the unique @id with a hash index, and User has no ID field', () => {
    expect(fieldOf(model, 'User', 'username')).toMatchObject({ isUniqueId: true, isIdField: false, search: ['hash'] });
    expect(typeOf(model, 'User').idField).toBeUndefined();
    expect(fieldOf(model, 'User', 'name')).toMatchObject({ nonNull: false, search: [], isUniqueId: false });
  });

  it('an ID field with @id is supplied by the caller (not an @id value field); a plain ID is not', () => {
    const supplied = validModel('type Product { id: ID! @id name: String }');
    expect(fieldOf(supplied, 'Product', 'id')).toMatchObject({ isIdField: true, isUniqueId: false, suppliedByCaller: true });
    expect(fieldOf(model, 'Task', 'id').suppliedByCaller).toBeUndefined();
  });

  it('builds the same model twice (no hidden state)', () => {
    const again = buildSchemaModel(TASKS).model;
    expect(again && [...again.types.keys()]).toEqual(['Task', 'User']);
    expect(again?.types.get('User')?.fieldsByName.get('tasks')?.storedHere).toBe(false);
  });
});

describe('relation storage sides', () => {
  it('equal cardinality: the side declaring @hasInverse stores', () => {
    const model = validModel(`
      type Person { id: ID! spouse: Person }
      type Team { id: ID! members: [Member] @hasInverse(field: teams) }
      type Member { id: ID! teams: [Team] }
    `);
    expect(fieldOf(model, 'Team', 'members')).toMatchObject({ storedHere: true, inverse: { type: 'Member', field: 'teams' } });
    expect(fieldOf(model, 'Member', 'teams')).toMatchObject({ storedHere: false, inverse: { type: 'Team', field: 'members' } });
    expect(fieldOf(model, 'Person', 'spouse')).toMatchObject({ storedHere: true });
    expect(fieldOf(model, 'Person', 'spouse').inverse).toBeUndefined();
  });

  it('both sides declare: the smaller Type.field stores', () => {
    const model = validModel(`
      type Post { id: ID! author: Author @hasInverse(field: post) }
      type Author { id: ID! post: Post @hasInverse(field: author) }
    `);
    expect(fieldOf(model, 'Author', 'post').storedHere).toBe(true);
    expect(fieldOf(model, 'Post', 'author').storedHere).toBe(false);
  });

  it('a single side stores over a list side even when the list side declares', () => {
    const model = validModel(`
      type Country { id: ID! cities: [City!]! @hasInverse(field: country) }
      type City { id: ID! country: Country! }
    `);
    expect(fieldOf(model, 'City', 'country')).toMatchObject({ storedHere: true, inverse: { type: 'Country', field: 'cities' } });
    expect(fieldOf(model, 'Country', 'cities')).toMatchObject({ storedHere: false, itemNonNull: true, nonNull: true });
  });

  it('a field may be its own inverse (symmetric relation), stored here', () => {
    const model = validModel('type Person { id: ID! friends: [Person] @hasInverse(field: friends) }');
    expect(fieldOf(model, 'Person', 'friends')).toMatchObject({ storedHere: true, inverse: { type: 'Person', field: 'friends' } });
  });

  it('computed relation fields are never stored', () => {
    const model = validModel('type Person { id: ID! bestFriend: Person @lambda }');
    expect(fieldOf(model, 'Person', 'bestFriend')).toMatchObject({ lambda: true, storedHere: false });
  });
});

describe('interfaces', () => {
  const source = `
    interface Post {
      id: ID!
      title: String! @search(by: [term])
      author: Author! @hasInverse(field: posts)
    }
    type Article implements Post {
      body: String
    }
    type Question implements Post {
      id: ID!
      answered: Boolean
    }
    type Author {
      id: ID!
      name: String!
      posts: [Post]
      favourite: Post
    }
  `;
  const model = validModel(source);

  it('keeps the interface as a type of kind interface', () => {
    const post = typeOf(model, 'Post');
    expect(post.kind).toBe('interface');
    expect(post.fields.map((field) => field.name)).toEqual(['id', 'title', 'author']);
    expect(post.fields.every((field) => field.inheritedFrom === undefined)).toBe(true);
  });

  it('adds omitted interface fields first, marked inheritedFrom', () => {
    const article = typeOf(model, 'Article');
    expect(article.implements).toEqual(['Post']);
    expect(article.fields.map((field) => [field.name, field.inheritedFrom])).toEqual([
      ['id', 'Post'], ['title', 'Post'], ['author', 'Post'], ['body', undefined],
    ]);
    expect(article.idField?.name).toBe('id');
    expect(fieldOf(model, 'Article', 'title').search).toEqual(['term']);
  });

  it('accepts a redeclared interface field of the same type, keeping one copy in its declared place (Dgraph\'s order)', () => {
    const question = typeOf(model, 'Question');
    expect(question.fields.map((field) => [field.name, field.inheritedFrom])).toEqual([
      ['title', 'Post'], ['author', 'Post'], ['id', 'Post'], ['answered', undefined],
    ]);
  });

  it('puts the fields of the last interface named first, as Dgraph does', () => {
    const several = validModel(`
      interface A { id: ID!  a: String }
      interface B { b: String }
      type C implements A & B { c: String }
    `);
    expect(typeOf(several, 'C').fields.map((field) => field.name)).toEqual(['b', 'id', 'a', 'c']);
  });

  it('pairs the interface relation with its inverse; the single side stores', () => {
    expect(fieldOf(model, 'Post', 'author')).toMatchObject({ storedHere: true, inverse: { type: 'Author', field: 'posts' } });
    expect(fieldOf(model, 'Article', 'author')).toMatchObject({ storedHere: true, inverse: { type: 'Author', field: 'posts' } });
    expect(fieldOf(model, 'Author', 'posts')).toMatchObject({ storedHere: false, inverse: { type: 'Post', field: 'author' } });
  });

  it('allows a relation to an interface without an inverse', () => {
    expect(fieldOf(model, 'Author', 'favourite')).toMatchObject({ of: { kind: 'relation', target: 'Post' }, storedHere: true });
    expect(fieldOf(model, 'Author', 'favourite').inverse).toBeUndefined();
  });

  it('gives each implementing type its own field objects', () => {
    expect(fieldOf(model, 'Article', 'title')).not.toBe(fieldOf(model, 'Post', 'title'));
  });
});

describe('enums and the other scalars', () => {
  const model = validModel(`
    enum Priority { LOW MEDIUM HIGH }
    "A thing to do."
    type Item {
      id: ID!
      priority: Priority @search
      level: Priority! @search(by: [exact, regexp])
      count: Int @search
      big: Int64! @id @search
      score: Float @search(by: [float])
      due: DateTime @search
      created: DateTime @search(by: [day])
      tags: [String!] @search(by: [exact, term])
      code: String @search
      sku: Int @id
      old: String @deprecated(reason: "use code")
      older: String @deprecated
    }
  `);

  it('records the enum and its values', () => {
    expect(model.enums.get('Priority')).toEqual({ name: 'Priority', values: ['LOW', 'MEDIUM', 'HIGH'], loc: { line: 2, column: 10 } });
  });

  it('normalises @search to explicit index names', () => {
    const search = (name: string) => fieldOf(model, 'Item', name).search;
    expect(search('priority')).toEqual(['hash']);
    expect(search('level')).toEqual(['exact', 'regexp']);
    expect(search('count')).toEqual(['int']);
    expect(search('big')).toEqual(['int64']);
    expect(search('score')).toEqual(['float']);
    expect(search('due')).toEqual(['year']);
    expect(search('created')).toEqual(['day']);
    expect(search('tags')).toEqual(['exact', 'term']);
    expect(search('code')).toEqual(['term']);
  });

  it('resolves field kinds and wrappers', () => {
    expect(fieldOf(model, 'Item', 'priority').of).toEqual({ kind: 'enum', enumName: 'Priority' });
    expect(fieldOf(model, 'Item', 'big')).toMatchObject({ of: { kind: 'scalar', scalar: 'Int64' }, isUniqueId: true, nonNull: true });
    expect(fieldOf(model, 'Item', 'sku').isUniqueId).toBe(true);
    expect(fieldOf(model, 'Item', 'tags')).toMatchObject({ list: true, itemNonNull: true, nonNull: false, typeText: '[String!]' });
  });

  it('keeps descriptions and deprecation reasons', () => {
    expect(typeOf(model, 'Item').description).toBe('A thing to do.');
    expect(fieldOf(model, 'Item', 'old').deprecationReason).toBe('use code');
    expect(fieldOf(model, 'Item', 'older').deprecationReason).toBe('No longer supported');
  });
});

describe('custom logic', () => {
  const model = validModel(`
    type Author {
      id: ID!
      name: String!
      rank(scale: Int!, mode: Mode): Float @lambda
      bio: String @custom(http: { url: "https://example.com/bio", method: POST, body: "{ id: $id }", forwardHeaders: ["Authorization"], secretHeaders: ["X-Key"], mode: BATCH })
    }
    enum Mode { FAST SLOW }
    type Query {
      authorsByName(name: String!): [Author] @lambda
      weather(city: String): String @custom(http: { url: "https://example.com/weather?city=$city" })
    }
    type Mutation {
      newAuthor(name: String!): ID! @lambda
    }
  `);

  it('collects custom queries and mutations with their arguments', () => {
    expect(model.customQueries.map((field) => field.name)).toEqual(['authorsByName', 'weather']);
    expect(model.customQueries[0]).toMatchObject({
      lambda: true, typeText: '[Author]', of: { kind: 'relation', target: 'Author' }, args: [{ name: 'name', typeText: 'String!', namedType: 'String' }],
    });
    expect(model.customQueries[1].custom).toEqual({
      url: 'https://example.com/weather?city=$city', method: 'GET', forwardHeaders: [], secretHeaders: [], mode: 'SINGLE',
    });
    expect(model.customMutations.map((field) => [field.name, field.lambda])).toEqual([['newAuthor', true]]);
    expect(model.types.has('Query')).toBe(false);
  });

  it('fills arguments and @custom settings on type fields', () => {
    expect(fieldOf(model, 'Author', 'rank')).toMatchObject({
      lambda: true,
      args: [{ name: 'scale', typeText: 'Int!', namedType: 'Int' }, { name: 'mode', typeText: 'Mode', namedType: 'Mode' }],
    });
    expect(fieldOf(model, 'Author', 'bio').custom).toEqual({
      url: 'https://example.com/bio', method: 'POST', body: '{ id: $id }', forwardHeaders: ['Authorization'], secretHeaders: ['X-Key'], mode: 'BATCH',
    });
    expect(fieldOf(model, 'Author', 'bio').lambda).toBe(false);
  });
});

describe('@auth rules', () => {
  it('reads rule, and, or, not into AuthRules', () => {
    const model = validModel(`
      type Task @auth(
        query: { or: [{ rule: """query($USER: String!) { queryTask { user(filter: { username: { eq: $USER } }) { __typename } } }""" }, { rule: "{ $ROLE: { eq: \\"ADMIN\\" } }" }] }
        add: { and: [{ rule: "query { queryTask { id } }" }, { not: { rule: "{ $ROLE: { eq: \\"GUEST\\" } }" } }] }
        delete: { rule: "{ $ROLE: { eq: \\"ADMIN\\" } }" }
      ) {
        id: ID!
        user: User
      }
      type User { username: String! @id }
    `);
    const auth = typeOf(model, 'Task').auth;
    expect(auth?.query?.or?.[0].rule).toContain('queryTask { user(filter: { username: { eq: $USER } })');
    expect(auth?.query?.or?.[1]).toEqual({ rule: '{ $ROLE: { eq: "ADMIN" } }' });
    expect(auth?.add).toEqual({ and: [{ rule: 'query { queryTask { id } }' }, { not: { rule: '{ $ROLE: { eq: "GUEST" } }' } }] });
    expect(auth?.update).toBeUndefined();
    expect(auth?.delete).toEqual({ rule: '{ $ROLE: { eq: "ADMIN" } }' });
    expect(typeOf(model, 'User').auth).toBeUndefined();
  });
});
