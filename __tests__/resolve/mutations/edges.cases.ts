import { detachDeleted, linkEdge } from '../../../src/resolve/mutations/edges.js';
import { addObjects } from '../../../src/resolve/mutations/run.js';
import type { FieldModel } from '../../../src/sdl/model.js';
import { modelOf, storedByLabel, useMutationStore } from './harness';

/**
 * The edge writes called directly, with fields whose inverse the model does not hold (as a schema built by
 * hand could give them): a derived side without a stored partner is an internal error naming the field; a
 * stored side whose partner is missing is a plain single edge; a delete of a type the model does not know
 * detaches nothing.
 */
const model = modelOf(`
type Author {
  id: ID!
  handle: String! @id
  posts: [Post] @hasInverse(field: author)
}

type Post {
  id: ID!
  slug: String! @id
  author: Author
}
`);

const fieldOf = (typeName: string, name: string): FieldModel => model.types.get(typeName)!.fieldsByName.get(name)!;

describe('edge writes with an inverse the model does not hold', () => {
  const db = useMutationStore(model);
  const stored = () => storedByLabel(db.store, { Author: 'handle', Post: 'slug' });

  async function idOf(collection: string, field: string, value: string): Promise<string> {
    const [found] = await db.store.collection(collection).find({ [field]: value });
    if (!found) throw new Error(`no ${collection} with ${field} ${value}`);
    return found._id;
  }

  beforeEach(async () => {
    await addObjects(model, db.store, 'Author', [{ handle: 'ann' }], false);
    await addObjects(model, db.store, 'Post', [{ slug: 'p1', author: { handle: 'ann' } }, { slug: 'p2' }], false);
  });

  test.each([
    ['no inverse', undefined],
    ['an inverse in a type the model does not have', { type: 'Gone', field: 'author' }],
    ['an inverse naming no field of its type', { type: 'Post', field: 'writer' }],
  ])('a derived side with %s is refused, naming the field', async (_case, inverse) => {
    const posts: FieldModel = { ...fieldOf('Author', 'posts'), inverse };
    const [ann, p2] = [await idOf('Author', 'handle', 'ann'), await idOf('Post', 'slug', 'p2')];
    const before = await stored();
    await expect(db.store.transaction((tx) => linkEdge(model, db.store, tx, 'Author', posts, ann, p2))).rejects.toEqual(new Error('Author.posts is derived but has no stored inverse'));
    expect(await stored()).toEqual(before);
  });

  test.each([
    ['in a type the model does not have', { type: 'Gone', field: 'posts' }],
    ['a field its type does not have', { type: 'Author', field: 'writings' }],
  ])('a stored single side whose inverse is %s is no one-to-one edge: other holders keep the target', async (_case, inverse) => {
    const author: FieldModel = { ...fieldOf('Post', 'author'), inverse };
    const [ann, p2] = [await idOf('Author', 'handle', 'ann'), await idOf('Post', 'slug', 'p2')];
    await db.store.transaction((tx) => linkEdge(model, db.store, tx, 'Post', author, p2, ann));
    expect(await stored()).toEqual({ '#ann': { handle: 'ann' }, '#p1': { slug: 'p1', author: '#ann' }, '#p2': { slug: 'p2', author: '#ann' } });
  });

  test('deleting objects of a type the model does not know detaches no edge', async () => {
    const [ann, before] = [await idOf('Author', 'handle', 'ann'), await stored()];
    await db.store.transaction((tx) => detachDeleted(model, db.store, tx, 'Gone', [ann]));
    expect(await stored()).toEqual(before);
  });
});
