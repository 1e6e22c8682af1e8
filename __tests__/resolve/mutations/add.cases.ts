import { addObjects, updateObjects } from '../../../src/resolve/mutations/run.js';
import { failureOf as failure, modelOf, storedByLabel, useMutationStore } from './harness';

/** addObjects in process on the embedded store: what an add writes, links, counts and refuses. */
const model = modelOf(`
type Author {
  id: ID!
  handle: String! @id
  name: String @search(by: [term])
  posts: [Post] @hasInverse(field: author)
  profile: Profile
  friends: [Author] @hasInverse(field: friends)
  partner: Author @hasInverse(field: partner)
}

type Post {
  id: ID!
  slug: String! @id
  title: String
  author: Author
  related: [Post]
  tags: [String]
  score: Int
}

type Profile {
  id: ID!
  bio: String! @id
  owner: Author @hasInverse(field: profile)
}

interface Item {
  id: ID!
  label: String
}

type Box implements Item {
  size: Int
}

type Event {
  name: String! @id
  at: DateTime @default(add: {value: "$now"})
  note: DateTime @default(update: {value: "$now"})
}

type Shelf {
  name: String! @id
  items: [Item]
  main: Item
}
`);

describe('addObjects', () => {
  const db = useMutationStore(model);
  const LABELS = { Author: 'handle', Post: 'slug', Profile: 'bio' };
  const stored = () => storedByLabel(db.store, LABELS);


  const add = (typeName: string, inputs: Record<string, unknown>[], upsert = false) => addObjects(model, db.store, typeName, inputs, upsert);

  async function idOf(collection: string, field: string, value: string): Promise<string> {
    const [found] = await db.store.collection(collection).find({ [field]: value });
    if (!found) throw new Error(`no ${collection} with ${field} ${value}`);
    return found._id;
  }

  describe('scalars', () => {
    test('an add stores each given scalar (nulls left out) and its search tokens, and counts each object', async () => {
      const outcome = await add('Author', [{ handle: 'ann', name: 'Ann Lee' }, { handle: 'bob', name: null }]);
      expect(await stored()).toEqual({
        '#ann': { handle: 'ann', name: 'Ann Lee', _term_name: ['ann', 'lee'] },
        '#bob': { handle: 'bob' },
      });
      expect(outcome).toEqual({ ids: new Map([['Author', [await idOf('Author', 'handle', 'ann'), await idOf('Author', 'handle', 'bob')]]]), numUids: 2 });
    });

    test('a list scalar is stored as given', async () => {
      await add('Post', [{ slug: 'p1', tags: ['a', 'b', 'a'], score: 0 }]);
      expect(await stored()).toEqual({ '#p1': { slug: 'p1', tags: ['a', 'b', 'a'], score: 0 } });
    });
  });

  describe('relations', () => {
    test('a Ref by id links the existing object on the stored side', async () => {
      await add('Author', [{ handle: 'ann' }]);
      const ann = await idOf('Author', 'handle', 'ann');
      const outcome = await add('Post', [{ slug: 'p1', author: { id: ann } }]);
      expect(await stored()).toEqual({ '#ann': { handle: 'ann' }, '#p1': { slug: 'p1', author: '#ann' } });
      expect(outcome.numUids).toBe(1);
    });

    test('a Ref by @id value links the existing object; an unknown value creates it (and counts it)', async () => {
      await add('Author', [{ handle: 'ann' }]);
      const outcome = await add('Post', [{ slug: 'p1', author: { handle: 'ann' } }, { slug: 'p2', author: { handle: 'cid', name: 'Cid' } }]);
      expect(await stored()).toEqual({
        '#ann': { handle: 'ann' },
        '#cid': { handle: 'cid', name: 'Cid', _term_name: ['cid'] },
        '#p1': { slug: 'p1', author: '#ann' },
        '#p2': { slug: 'p2', author: '#cid' },
      });
      expect(outcome.numUids).toBe(3);
      expect(outcome.ids).toEqual(new Map([['Post', [await idOf('Post', 'slug', 'p1'), await idOf('Post', 'slug', 'p2')]]]));
    });

    test('a list stored here keeps each target once', async () => {
      await add('Post', [{ slug: 'p1' }]);
      const p1 = await idOf('Post', 'slug', 'p1');
      await add('Post', [{ slug: 'p2', related: [{ id: p1 }, { slug: 'p1' }, { slug: 'p3' }] }]);
      expect(await stored()).toEqual({
        '#p1': { slug: 'p1' },
        '#p2': { slug: 'p2', related: ['#p1', '#p3'] },
        '#p3': { slug: 'p3' },
      });
    });

    test('objects given on the derived side are linked from their stored side', async () => {
      await add('Post', [{ slug: 'old' }]);
      await add('Author', [{ handle: 'ann', posts: [{ slug: 'old' }, { slug: 'new', title: 'New' }] }]);
      expect(await stored()).toEqual({
        '#ann': { handle: 'ann' },
        '#old': { slug: 'old', author: '#ann' },
        '#new': { slug: 'new', title: 'New', author: '#ann' },
      });
    });

    test('a one-to-one edge given on the derived side moves the target from its previous holder', async () => {
      await add('Author', [{ handle: 'ann', profile: { bio: 'shared' } }]);
      expect(await stored()).toEqual({ '#ann': { handle: 'ann' }, '#shared': { bio: 'shared', owner: '#ann' } });
      await add('Author', [{ handle: 'bob', profile: { bio: 'shared' } }]);
      expect(await stored()).toEqual({ '#ann': { handle: 'ann' }, '#bob': { handle: 'bob' }, '#shared': { bio: 'shared', owner: '#bob' } });
    });

    test('a one-to-one edge given on the stored side also takes the target from its previous holder', async () => {
      await add('Author', [{ handle: 'ann' }, { handle: 'bob' }]);
      await add('Profile', [{ bio: 'one', owner: { handle: 'ann' } }]);
      await add('Profile', [{ bio: 'two', owner: { handle: 'ann' } }, { bio: 'three', owner: { handle: 'bob' } }]);
      expect(await stored()).toEqual({
        '#ann': { handle: 'ann' },
        '#bob': { handle: 'bob' },
        '#one': { bio: 'one' },
        '#two': { bio: 'two', owner: '#ann' },
        '#three': { bio: 'three', owner: '#bob' },
      });
    });

    test('a symmetric list edge is stored on both ends, once', async () => {
      await add('Author', [{ handle: 'ann' }]);
      await add('Author', [{ handle: 'bob', friends: [{ handle: 'ann' }, { handle: 'ann' }, { handle: 'cid' }] }]);
      expect(await stored()).toEqual({
        '#ann': { handle: 'ann', friends: ['#bob'] },
        '#bob': { handle: 'bob', friends: ['#ann', '#cid'] },
        '#cid': { handle: 'cid', friends: ['#bob'] },
      });
    });

    test('a symmetric single edge pairs both ends and frees their previous partners', async () => {
      await add('Author', [{ handle: 'ann', partner: { handle: 'bob' } }]);
      expect(await stored()).toEqual({ '#ann': { handle: 'ann', partner: '#bob' }, '#bob': { handle: 'bob', partner: '#ann' } });
      await add('Author', [{ handle: 'cid', partner: { handle: 'bob' } }]);
      expect(await stored()).toEqual({
        '#ann': { handle: 'ann' },
        '#bob': { handle: 'bob', partner: '#cid' },
        '#cid': { handle: 'cid', partner: '#bob' },
      });
    });

    test('an object may be its own symmetric partner: one end, written once', async () => {
      await add('Author', [{ handle: 'ann' }]);
      const ann = await idOf('Author', 'handle', 'ann');
      await add('Author', [{ handle: 'bob', partner: { handle: 'ann' } }]);
      await updateObjects(model, db.store, 'Author', { filter: { id: [ann] }, set: { partner: { id: ann } } });
      expect(await stored()).toEqual({ '#ann': { handle: 'ann', partner: '#ann' }, '#bob': { handle: 'bob' } });
    });

    test('a null Ref and a null list item are skipped', async () => {
      await add('Post', [{ slug: 'p1', author: null, related: [null, { slug: 'p2' }] }]);
      expect(await stored()).toEqual({ '#p1': { slug: 'p1', related: ['#p2'] }, '#p2': { slug: 'p2' } });
    });

    test('an interface field links an existing implementing object by id', async () => {
      await add('Box', [{ label: 'b', size: 2 }]);
      const [box] = await db.documents('Box');
      await add('Shelf', [{ name: 's', items: [{ id: box!._id }], main: { id: box!._id } }]);
      expect(await db.contents('Shelf')).toEqual([{ name: 's', items: [box!._id], main: box!._id }]);
    });
  });

  describe('"$now"', () => {
    test('every object one add writes takes the same time, nested ones included; an upsert that finds its object takes the update default', async () => {
      await add('Event', [{ name: 'old' }]);
      const before = new Date().toISOString();
      await add('Event', [{ name: 'a' }, { name: 'b', at: null }, { name: 'old' }], true);
      const after = new Date().toISOString();
      const events = await db.contents('Event', 'name');
      const [a, b, old] = events as Array<{ at: string; note?: string }>;
      expect(a!.at >= before && a!.at <= after).toBe(true);
      expect(events).toEqual([{ name: 'a', at: a!.at }, { name: 'b', at: a!.at }, { name: 'old', at: old!.at, note: a!.at }]);
      expect(old!.at <= before).toBe(true);
    });
  });

  describe('refusals', () => {
    test.each([
      ['an @id value that exists', 'Author', [{ handle: 'ann' }], 'DUPLICATE_ID', 'couldn\'t rewrite mutation addAuthor because failed to rewrite mutation payload because id ann already exists for field handle inside type Author'],
      ['an @id value given twice in one add', 'Author', [{ handle: 'new' }, { handle: 'new' }], 'DUPLICATE_ID', 'couldn\'t rewrite mutation addAuthor because failed to rewrite mutation payload because id new already exists for field handle inside type Author'],
      ['a Ref by an id that does not exist', 'Post', [{ slug: 'p', author: { id: 'nope' } }], 'BAD_USER_INPUT', 'couldn\'t rewrite mutation addPost because failed to rewrite mutation payload because AuthorRef: no Author with id "nope"'],
      ['an interface Ref by an id that does not exist', 'Shelf', [{ name: 's', main: { id: 'nope' } }], 'BAD_USER_INPUT', 'couldn\'t rewrite mutation addShelf because failed to rewrite mutation payload because ItemRef: no Item with id "nope"'],
      ['an interface Ref without an id', 'Shelf', [{ name: 's', items: [{ label: 'new' }] }], 'BAD_USER_INPUT', 'couldn\'t rewrite mutation addShelf because failed to rewrite mutation payload because ItemRef: an interface can only reference an existing object by id'],
      ['an add of an interface', 'Item', [{ label: 'x' }], 'BAD_USER_INPUT', 'couldn\'t rewrite mutation addItem because failed to rewrite mutation payload because Item is an interface: add one of its implementing types'],
    ])('%s', async (_case, typeName, inputs, code, message) => {
      await add('Author', [{ handle: 'ann' }]);
      const before = await stored();
      expect(await failure(add(typeName, inputs))).toEqual({ code, message });
      expect(await stored()).toEqual(before);
      expect(await db.contents('Shelf')).toEqual([]);
    });

    test('an unknown type is named', async () => {
      expect(await failure(add('Nope', [{}]))).toEqual({ code: undefined, message: 'Unknown type Nope' });
    });
  });

  describe('upsert', () => {
    test('an existing object is updated and listed, a new one created; only new objects count', async () => {
      await add('Author', [{ handle: 'ann', name: 'Ann' }]);
      const ann = await idOf('Author', 'handle', 'ann');
      const outcome = await add('Author', [{ handle: 'ann', name: 'Anne' }, { handle: 'bob' }, { handle: 'ann' }], true);
      expect(await stored()).toEqual({
        '#ann': { handle: 'ann', name: 'Anne', _term_name: ['anne'] },
        '#bob': { handle: 'bob' },
      });
      expect(outcome).toEqual({ ids: new Map([['Author', [ann, await idOf('Author', 'handle', 'bob')]]]), numUids: 1 });
    });

    test('an upsert links the relations it gives to the existing object', async () => {
      await add('Author', [{ handle: 'ann' }]);
      await add('Author', [{ handle: 'ann', posts: [{ slug: 'p1' }], partner: { handle: 'bob' } }], true);
      expect(await stored()).toEqual({
        '#ann': { handle: 'ann', partner: '#bob' },
        '#bob': { handle: 'bob', partner: '#ann' },
        '#p1': { slug: 'p1', author: '#ann' },
      });
    });
  });
});
