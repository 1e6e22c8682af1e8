import type { GraphQLError } from 'graphql';
import { asDuplicateError, typeOf } from '../../../src/resolve/mutations/objects.js';
import { addObjects, updateObjects } from '../../../src/resolve/mutations/run.js';
import { DuplicateKeyError, type Collection, type OperationScope, type Store } from '../../../src/store/port.js';
import { withCollections } from '../../../src/store/with-collections.js';
import { failureOf as failure, modelOf, recording, storedByLabel, useMutationStore } from './harness';

/**
 * objects.ts in process: which field names a new object's id, what an add or update reads and writes (and in
 * which transaction), how null values are told apart from absent ones, and what `remove` takes away.
 */
const model = modelOf(`
type Doc @key(fields: "code") {
  key: ID! @id
  code: String! @id
  title: String
}

type Author {
  id: ID!
  handle: String! @id
  email: String @id
  name: String @search(by: [term])
  posts: [Post] @hasInverse(field: author)
}

type Post {
  id: ID!
  slug: String! @id
  tags: [String]
  author: Author
  related: [Post]
  note: Note
}

type Note {
  noteID: ID!
  text: String
}
`);

describe('objects: ids, reads, writes and removals', () => {
  const db = useMutationStore(model);
  const stored = () => storedByLabel(db.store, { Author: 'handle', Post: 'slug' });
  const add = (store: Store, typeName: string, inputs: Record<string, unknown>[], upsert = false) => addObjects(model, store, typeName, inputs, upsert);

  async function idOf(collection: string, field: string, value: string): Promise<string> {
    const [found] = await db.store.collection(collection).find({ [field]: value });
    if (!found) throw new Error(`no ${collection} with ${field} ${value}`);
    return found._id;
  }


  describe('the id of a type whose @key is not its ID @id field', () => {
    test('a duplicate _id is named by the ID field the caller gave, not by the @key field', () => {
      const error = asDuplicateError(new DuplicateKeyError('Doc', '_id', 'd1'), typeOf(model, 'Doc')) as GraphQLError;
      expect({ message: error.message, extensions: error.extensions }).toEqual({
        message: 'id d1 already exists for field key inside type Doc',
        extensions: { code: 'DUPLICATE_ID', type: 'Doc', field: 'key', value: 'd1' },
      });
    });

    test.each([
      ['left out', { code: 'c1' }],
      ['given as null', { key: null, code: 'c1' }],
    ])('an ID @id %s is refused, even when an object\'s id prints as that missing value', async (_case, input) => {
      await add(db.store, 'Doc', [{ key: 'undefined', code: 'cu' }, { key: 'null', code: 'cn' }]);
      expect(await failure(add(db.store, 'Doc', [input]))).toEqual({ code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation addDoc because failed to rewrite mutation payload because Doc.key is declared ID @id: give the new object\'s key' });
      expect(await db.documents('Doc')).toEqual([{ _id: 'null', code: 'cn' }, { _id: 'undefined', code: 'cu' }]);
    });
  });

  test('a Ref by an id that does not exist names the target\'s ID field', async () => {
    expect(await failure(add(db.store, 'Post', [{ slug: 'p1', note: { noteID: 'nope' } }]))).toEqual({ code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation addPost because failed to rewrite mutation payload because NoteRef: no Note with noteID "nope"' });
    expect(await db.contents('Post')).toEqual([]);
  });

  describe('null values', () => {
    test('a null optional @id value looks for no object: another object without the value is no duplicate', async () => {
      await add(db.store, 'Author', [{ handle: 'ann' }]);
      await add(db.store, 'Author', [{ handle: 'bob', email: null }]);
      expect(await stored()).toEqual({ '#ann': { handle: 'ann' }, '#bob': { handle: 'bob' } });
    });

    test('a null list relation in an add stores no list', async () => {
      await add(db.store, 'Post', [{ slug: 'p1', related: null, author: null }]);
      expect(await db.contents('Post')).toEqual([{ slug: 'p1' }]);
      expect(Object.keys((await db.documents('Post'))[0]!)).toEqual(['_id', 'slug']);
    });
  });

  describe('undefined values (in-process callers; GraphQL leaves absent fields out)', () => {
    test('undefined in set removes the value and its tokens, as null does', async () => {
      await add(db.store, 'Author', [{ handle: 'ann', name: 'Ann' }]);
      const ann = await idOf('Author', 'handle', 'ann');
      const { store, calls } = recording(db.store);
      await updateObjects(model, store, 'Author', { filter: { handle: { eq: 'ann' } }, set: { name: undefined } });
      expect(calls.filter((call) => !call.startsWith('find'))).toEqual([`updateMany Author [{"_id":"${ann}"},{"$unset":{"name":"","_term_name":""}}]`]);
      expect(await stored()).toEqual({ '#ann': { handle: 'ann' } });
    });

    test('an undefined Ref in remove is skipped, as a null one is', async () => {
      await add(db.store, 'Post', [{ slug: 'p1', author: { handle: 'ann' }, related: [{ slug: 'p2' }] }]);
      await updateObjects(model, db.store, 'Post', { filter: { slug: { eq: 'p1' } }, remove: { author: undefined, related: [undefined, null] } });
      expect(await stored()).toEqual({ '#ann': { handle: 'ann' }, '#p1': { slug: 'p1', author: '#ann', related: ['#p2'] }, '#p2': { slug: 'p2' } });
    });
  });

  describe('store calls', () => {
    test('an add stores its own edges in the insert: a single edge whose inverse is a list, and a list without inverse', async () => {
      await add(db.store, 'Author', [{ handle: 'ann' }]);
      await add(db.store, 'Post', [{ slug: 'p0' }]);
      const ann = await idOf('Author', 'handle', 'ann');
      const p0 = await idOf('Post', 'slug', 'p0');
      const { store, calls } = recording(db.store);
      await add(store, 'Post', [{ slug: 'p1', author: { id: ann }, related: [{ id: p0 }] }]);
      const p1 = await idOf('Post', 'slug', 'p1');
      expect(calls.filter((call) => !call.startsWith('find'))).toEqual([
        `insertMany Post [{"_id":"${p1}","slug":"p1","author":"${ann}","related":["${p0}"]}]`,
      ]);
    });

    test('a remove that names no existing object writes nothing', async () => {
      await add(db.store, 'Author', [{ handle: 'ann', posts: [{ slug: 'p1' }] }]);
      const { store, calls } = recording(db.store);
      await updateObjects(model, store, 'Author', { filter: { handle: { eq: 'ann' } }, remove: { posts: [{ slug: 'nobody' }] } });
      await updateObjects(model, store, 'Post', { filter: { slug: { eq: 'p1' } }, remove: { author: { handle: 'nobody' } } });
      expect(calls.filter((call) => !call.startsWith('find'))).toEqual([]);
      expect(await stored()).toEqual({ '#ann': { handle: 'ann' }, '#p1': { slug: 'p1', author: '#ann' } });
    });

    test('a null in set, and a value in remove, $unset the stored value and its search tokens', async () => {
      await add(db.store, 'Author', [{ handle: 'ann', name: 'Ann Lee' }, { handle: 'bob', name: 'Bob' }]);
      const [ann, bob] = [await idOf('Author', 'handle', 'ann'), await idOf('Author', 'handle', 'bob')];
      const { store, calls } = recording(db.store);
      await updateObjects(model, store, 'Author', { filter: { handle: { eq: 'ann' } }, set: { name: null } });
      await updateObjects(model, store, 'Author', { filter: { handle: { eq: 'bob' } }, remove: { name: 'Bob' } });
      expect(calls.filter((call) => !call.startsWith('find'))).toEqual([
        `updateMany Author [{"_id":"${ann}"},{"$unset":{"name":"","_term_name":""}}]`,
        `updateMany Author [{"_id":"${bob}","name":"Bob"},{"$unset":{"name":"","_term_name":""}}]`,
      ]);
      expect(await stored()).toEqual({ '#ann': { handle: 'ann' }, '#bob': { handle: 'bob' } });
    });

    test('every read and write of an add, an upsert and an update is made in the mutation\'s transaction', async () => {
      const scopes: string[] = [];
      const inner = db.store;
      const noting = withCollections(inner, (name) => {
        const collection = inner.collection(name);
        const note = (method: string, scope: OperationScope | undefined) => scopes.push(`${method} ${name} ${scope?.tx === undefined ? 'outside' : 'in tx'}`);
        return {
          name,
          find: (filter, options, scope) => (note('find', scope), collection.find(filter, options, scope)),
          findPerKey: (field, keys, filter, page, scope) => (note('findPerKey', scope), collection.findPerKey(field, keys, filter, page, scope)),
          count: (filter, scope) => (note('count', scope), collection.count(filter, scope)),
          aggregate: (pipeline, scope) => (note('aggregate', scope), collection.aggregate(pipeline, scope)),
          insertMany: (documents, scope) => (note('insertMany', scope), collection.insertMany(documents, scope)),
          updateMany: (filter, update, scope) => (note('updateMany', scope), collection.updateMany(filter, update, scope)),
          deleteMany: (filter, scope) => (note('deleteMany', scope), collection.deleteMany(filter, scope)),
        } satisfies Collection;
      });
      await add(noting, 'Doc', [{ key: 'd1', code: 'c1' }]);
      await add(noting, 'Doc', [{ key: 'd1', code: 'c1', title: 'T' }], true);
      await add(noting, 'Author', [{ handle: 'ann', name: 'Ann', posts: [{ slug: 'p1', tags: ['a', 'b'] }] }]);
      const p1 = await idOf('Post', 'slug', 'p1');
      await add(noting, 'Post', [{ slug: 'p2', related: [{ id: p1 }] }]);
      await updateObjects(model, noting, 'Author', { filter: { handle: { eq: 'ann' } }, set: { posts: [{ slug: 'p2' }] }, remove: { name: 'Ann' } });
      await updateObjects(model, noting, 'Post', { filter: { slug: { eq: 'p1' } }, remove: { tags: ['a'], author: { handle: 'ann' } } });
      expect(scopes.filter((scope) => scope.endsWith('outside'))).toEqual([]);
      expect(new Set(scopes.map((scope) => scope.replace(/ in tx$/, '')))).toEqual(new Set([
        'find Doc', 'insertMany Doc', 'updateMany Doc', 'find Author', 'insertMany Author', 'updateMany Author',
        'find Post', 'insertMany Post', 'updateMany Post',
      ]));
    });
  });

  describe('remove', () => {
    beforeEach(async () => {
      await add(db.store, 'Post', [{ slug: 'p1', tags: ['a', 'b'] }, { slug: 'p2', tags: ['a', 'b'] }]);
    });

    test('list items are pulled from the objects the filter matches only', async () => {
      await updateObjects(model, db.store, 'Post', { filter: { slug: { eq: 'p1' } }, remove: { tags: ['a'] } });
      expect(await stored()).toEqual({ '#p1': { slug: 'p1', tags: ['b'] }, '#p2': { slug: 'p2', tags: ['a', 'b'] } });
    });

    test('a null list removes the whole list, of the objects the filter matches only', async () => {
      await updateObjects(model, db.store, 'Post', { filter: { slug: { eq: 'p1' } }, remove: { tags: null } });
      expect(await stored()).toEqual({ '#p1': { slug: 'p1' }, '#p2': { slug: 'p2', tags: ['a', 'b'] } });
    });
  });
});
