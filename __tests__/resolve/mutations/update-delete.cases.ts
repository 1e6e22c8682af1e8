import { addObjects, deleteObjects, updateObjects } from '../../../src/resolve/mutations/run.js';
import type { Transaction } from '../../../src/store/port.js';
import { modelOf, storedByLabel, useMutationStore } from './harness';

/** updateObjects and deleteObjects in process on the embedded store: set, remove, links, and what a delete detaches. */
const model = modelOf(`
type Author {
  id: ID!
  handle: String! @id
  name: String @search(by: [term])
  nick: String
  posts: [Post] @hasInverse(field: author)
  profile: Profile
  friends: [Author] @hasInverse(field: friends)
  partner: Author @hasInverse(field: partner)
  pet: Pet
  favourite: Item
  doc: Doc
  note: Note
  touched: DateTime @default(update: {value: "$now"})
}

type Post {
  id: ID!
  slug: String! @id
  author: Author
  related: [Post]
  tags: [String]
  score: Int @default(update: {value: "0"})
}

type Profile {
  id: ID!
  bio: String! @id
  owner: Author @hasInverse(field: profile)
}

interface Item {
  id: ID!
  label: String! @id
}

type Box implements Item {
  size: Int
}

type Bag implements Item {
  size: Int
}

type Doc { key: ID! @id }
type Note { key: ID! @id }

type Cat { id: ID! name: String! @id }
type Dog { id: ID! name: String! @id }
union Pet = Cat | Dog
`);

describe('updateObjects and deleteObjects', () => {
  const db = useMutationStore(model);
  const LABELS = { Author: 'handle', Post: 'slug', Profile: 'bio', Box: 'label', Bag: 'label', Cat: 'name', Dog: 'name' };
  const stored = () => storedByLabel(db.store, LABELS);

  const add = (typeName: string, inputs: Record<string, unknown>[]) => addObjects(model, db.store, typeName, inputs, false);
  const update = (typeName: string, input: { filter: Record<string, unknown>; set?: Record<string, unknown> | null; remove?: Record<string, unknown> | null }) =>
    updateObjects(model, db.store, typeName, input);
  const remove = (typeName: string, filter: Record<string, unknown>, beforeDelete: (ids: Map<string, string[]>, tx: Transaction) => Promise<void> = async () => {}) => deleteObjects(model, db.store, typeName, filter, beforeDelete);

  async function idOf(collection: string, field: string, value: string): Promise<string> {
    const [found] = await db.store.collection(collection).find({ [field]: value });
    if (!found) throw new Error(`no ${collection} with ${field} ${value}`);
    return found._id;
  }

  /** Every stored document but the update's `$now` time, which is checked on its own. */
  async function storedWithoutTime(): Promise<Record<string, Record<string, unknown>>> {
    const view = await stored();
    for (const document of Object.values(view)) delete document.touched;
    return view;
  }

  const byHandle = (handle: string) => ({ handle: { eq: handle } });

  describe('updateObjects: set and remove on scalars', () => {
    beforeEach(async () => {
      await add('Author', [{ handle: 'ann', name: 'Ann Lee', nick: 'al' }, { handle: 'bob', name: 'Bob', nick: 'b' }]);
      await add('Post', [{ slug: 'p1', tags: ['a', 'b', 'c'], score: 5 }]);
    });

    test('set writes the values and their tokens on the matched objects only, and the update defaults with them', async () => {
      const outcome = await update('Author', { filter: byHandle('ann'), set: { name: 'Ann Smith', nick: null } });
      expect(await storedWithoutTime()).toEqual({
        '#ann': { handle: 'ann', name: 'Ann Smith', _term_name: ['ann', 'smith'] },
        '#bob': { handle: 'bob', name: 'Bob', nick: 'b', _term_name: ['bob'] },
        '#p1': { slug: 'p1', tags: ['a', 'b', 'c'], score: 5 },
      });
      expect((await stored())['#ann']!.touched).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));
      expect(outcome).toEqual({ ids: new Map([['Author', [await idOf('Author', 'handle', 'ann')]]]), numUids: 1 });
    });

    test('remove takes a scalar away only when the given value is the stored one, or null is given', async () => {
      await update('Author', { filter: byHandle('ann'), remove: { nick: 'other', name: 'Ann Lee' } });
      await update('Author', { filter: byHandle('bob'), remove: { nick: null } });
      expect(await storedWithoutTime()).toEqual({
        '#ann': { handle: 'ann', nick: 'al' },
        '#bob': { handle: 'bob', name: 'Bob', _term_name: ['bob'] },
        '#p1': { slug: 'p1', tags: ['a', 'b', 'c'], score: 5 },
      });
    });

    test('set to null removes a value and its search tokens; remove ignores the ID field', async () => {
      await update('Author', { filter: byHandle('ann'), set: { name: null } });
      await update('Author', { filter: byHandle('bob'), remove: { id: await idOf('Author', 'handle', 'bob') } });
      expect(await storedWithoutTime()).toEqual({
        '#ann': { handle: 'ann', nick: 'al' },
        '#bob': { handle: 'bob', name: 'Bob', nick: 'b', _term_name: ['bob'] },
        '#p1': { slug: 'p1', tags: ['a', 'b', 'c'], score: 5 },
      });
    });

    test('remove pulls list items; a patch without set takes no update default', async () => {
      await update('Post', { filter: { slug: { eq: 'p1' } }, remove: { tags: ['a', 'c', 'z'] } });
      expect((await stored())['#p1']).toEqual({ slug: 'p1', tags: ['b'], score: 5 });
    });

    test('an empty set takes no update default either; set then remove of one field leaves it removed', async () => {
      await update('Post', { filter: { slug: { eq: 'p1' } }, set: {}, remove: null });
      expect((await stored())['#p1']).toEqual({ slug: 'p1', tags: ['a', 'b', 'c'], score: 5 });
      await update('Post', { filter: { slug: { eq: 'p1' } }, set: { tags: ['x'] }, remove: { score: 0 } });
      expect((await stored())['#p1']).toEqual({ slug: 'p1', tags: ['x'] });
    });

    test('a filter matching nothing updates nothing and counts nothing', async () => {
      const before = await stored();
      expect(await update('Author', { filter: byHandle('nobody'), set: { nick: 'x' } })).toEqual({ ids: new Map([['Author', []]]), numUids: 0 });
      expect(await stored()).toEqual(before);
    });

    test('an @id value taken by another object is refused as a duplicate, and nothing is written', async () => {
      const before = await stored();
      await expect(update('Author', { filter: byHandle('ann'), set: { handle: 'bob', nick: 'x' } })).rejects.toMatchObject({
        message: 'couldn\'t rewrite mutation updateAuthor because failed to rewrite mutation payload because id bob already exists for field handle inside type Author',
        extensions: { code: 'DUPLICATE_ID', type: 'Author', field: 'handle', value: 'bob' },
      });
      expect(await stored()).toEqual(before);
    });

    test('an update over an interface updates the matched objects of each implementing type and counts them all', async () => {
      await add('Box', [{ label: 'b1', size: 1 }, { label: 'b2', size: 2 }]);
      await add('Bag', [{ label: 'g1', size: 1 }]);
      const outcome = await update('Item', { filter: { label: { in: ['b1', 'g1'] } }, set: { label: 'x' } as Record<string, unknown> });
      expect(outcome.numUids).toBe(2);
      expect(outcome.ids).toEqual(new Map([['Box', [await idOf('Box', 'label', 'x')]], ['Bag', [await idOf('Bag', 'label', 'x')]]]));
    });
  });

  describe('updateObjects: relations', () => {
    test('set links (the stored side, the derived side, a union member); remove unlinks what is named', async () => {
      await add('Author', [{ handle: 'ann' }, { handle: 'bob' }]);
      await add('Post', [{ slug: 'p1' }, { slug: 'p2' }]);
      await add('Cat', [{ name: 'tom' }]);
      await update('Author', { filter: byHandle('ann'), set: { posts: [{ slug: 'p1' }, { slug: 'p2' }], friends: [{ handle: 'bob' }], pet: { catRef: { name: 'tom' } } } });
      expect(await storedWithoutTime()).toEqual({
        '#ann': { handle: 'ann', friends: ['#bob'], pet: '#tom' },
        '#bob': { handle: 'bob', friends: ['#ann'] },
        '#p1': { slug: 'p1', author: '#ann' },
        '#p2': { slug: 'p2', author: '#ann' },
        '#tom': { name: 'tom' },
      });
      await update('Author', { filter: byHandle('ann'), remove: { posts: [{ slug: 'p1' }, { slug: 'unknown' }, null], friends: [{ handle: 'bob' }], pet: { catRef: { name: 'tom' } } } });
      expect(await storedWithoutTime()).toEqual({
        '#ann': { handle: 'ann', friends: [] },
        '#bob': { handle: 'bob', friends: [] },
        '#p1': { slug: 'p1' },
        '#p2': { slug: 'p2', author: '#ann' },
        '#tom': { name: 'tom' },
      });
    });

    test('remove unlinks a single edge only from the target named, by id', async () => {
      await add('Author', [{ handle: 'ann' }]);
      await add('Post', [{ slug: 'p1', author: { handle: 'ann' } }, { slug: 'p2' }]);
      const ann = await idOf('Author', 'handle', 'ann');
      await update('Post', { filter: { slug: { eq: 'p1' } }, remove: { author: { id: 'someone-else' } } });
      expect((await stored())['#p1']).toEqual({ slug: 'p1', author: '#ann' });
      await update('Post', { filter: { slug: { eq: 'p1' } }, remove: { author: { id: ann } } });
      expect((await stored())['#p1']).toEqual({ slug: 'p1' });
    });

    test('remove of a symmetric single edge frees both ends', async () => {
      await add('Author', [{ handle: 'ann', partner: { handle: 'bob' } }]);
      await update('Author', { filter: byHandle('bob'), remove: { partner: { handle: 'ann' } } });
      expect(await storedWithoutTime()).toEqual({ '#ann': { handle: 'ann' }, '#bob': { handle: 'bob' } });
    });

    test('a one-to-one link by update moves the target from its previous holder', async () => {
      await add('Author', [{ handle: 'ann', profile: { bio: 'p' } }, { handle: 'bob' }]);
      await update('Author', { filter: byHandle('bob'), set: { profile: { bio: 'p' } } });
      expect((await stored())['#p']).toEqual({ bio: 'p', owner: '#bob' });
    });

    test('an interface field links an object of any implementing type by id; an unknown id is refused', async () => {
      await add('Author', [{ handle: 'ann' }]);
      await add('Bag', [{ label: 'g' }]);
      const bag = await idOf('Bag', 'label', 'g');
      await update('Author', { filter: byHandle('ann'), set: { favourite: { id: bag } } });
      expect((await storedWithoutTime())['#ann']).toEqual({ handle: 'ann', favourite: '#g' });
      await expect(update('Author', { filter: byHandle('ann'), set: { favourite: { id: 'nope' } } })).rejects.toMatchObject({ code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation updateAuthor because failed to rewrite mutation payload because ItemRef: no Item with id "nope"' });
    });
  });

  describe('edges touch only their own ends', () => {
    test('a single edge without an inverse, or whose inverse is a list, is not one-to-one: other holders keep the target', async () => {
      await add('Box', [{ label: 'b' }]);
      await add('Author', [{ handle: 'ann', favourite: { id: await idOf('Box', 'label', 'b') } }, { handle: 'bob' }]);
      await add('Post', [{ slug: 'p1', author: { handle: 'ann' } }, { slug: 'p2' }]);
      await update('Author', { filter: byHandle('bob'), set: { favourite: { id: await idOf('Box', 'label', 'b') } } });
      await update('Post', { filter: { slug: { eq: 'p2' } }, set: { author: { handle: 'ann' } } });
      expect(await storedWithoutTime()).toEqual({
        '#ann': { handle: 'ann', favourite: '#b' },
        '#bob': { handle: 'bob', favourite: '#b' },
        '#b': { label: 'b' },
        '#p1': { slug: 'p1', author: '#ann' },
        '#p2': { slug: 'p2', author: '#ann', score: 0 },
      });
    });

    test('a list stored here: set adds each target once, remove pulls the one named', async () => {
      await add('Post', [{ slug: 'p1' }, { slug: 'p2' }, { slug: 'p3' }]);
      const p1 = { slug: { eq: 'p1' } };
      await update('Post', { filter: p1, set: { related: [{ slug: 'p2' }] } });
      await update('Post', { filter: p1, set: { related: [{ slug: 'p3' }, { slug: 'p2' }] } });
      expect((await stored())['#p1']).toEqual({ slug: 'p1', related: ['#p2', '#p3'], score: 0 });
      await update('Post', { filter: { slug: { eq: 'p3' } }, set: { related: [{ slug: 'p2' }] } });
      await update('Post', { filter: p1, remove: { related: [{ slug: 'p2' }] } });
      expect(await stored()).toEqual({ '#p1': { slug: 'p1', related: ['#p3'], score: 0 }, '#p2': { slug: 'p2' }, '#p3': { slug: 'p3', related: ['#p2'], score: 0 } });
    });

    test('symmetric edges: linking and unlinking one pair leaves every other pair as it was', async () => {
      await add('Author', [{ handle: 'ann', friends: [{ handle: 'bob' }, { handle: 'cid' }], partner: { handle: 'bob' } }]);
      await add('Author', [{ handle: 'dan', friends: [{ handle: 'bob' }], partner: { handle: 'eve' } }]);
      await update('Author', { filter: byHandle('ann'), remove: { friends: [{ handle: 'bob' }], partner: { handle: 'bob' } } });
      const expected = {
        '#ann': { handle: 'ann', friends: ['#cid'] },
        '#bob': { handle: 'bob', friends: ['#dan'] },
        '#cid': { handle: 'cid', friends: ['#ann'] },
        '#dan': { handle: 'dan', friends: ['#bob'], partner: '#eve' },
        '#eve': { handle: 'eve', partner: '#dan' },
      };
      expect(await storedWithoutTime()).toEqual(expected);
      await update('Author', { filter: byHandle('ann'), set: { partner: { handle: 'cid' } } });
      expect(await storedWithoutTime()).toEqual({ ...expected, '#ann': { handle: 'ann', friends: ['#cid'], partner: '#cid' }, '#cid': { handle: 'cid', friends: ['#ann'], partner: '#ann' } });
    });
  });

  describe('deleteObjects', () => {
    test('deletes the matched objects and every stored edge pointing at them; beforeDelete sees them first', async () => {
      await add('Author', [{ handle: 'ann', friends: [{ handle: 'bob' }], partner: { handle: 'cid' }, profile: { bio: 'p' } }]);
      await add('Post', [{ slug: 'p1', author: { handle: 'ann' }, related: [{ slug: 'p2' }, { slug: 'p3' }] }]);
      const ann = await idOf('Author', 'handle', 'ann');
      const seen: Array<[Map<string, string[]>, boolean]> = [];
      const beforeDelete = async (ids: Map<string, string[]>, tx: Transaction) => {
        seen.push([ids, (await db.store.collection('Author').find({ _id: ann }, {}, { tx })).length === 1]);
      };
      const outcome = await remove('Author', byHandle('ann'), beforeDelete);
      expect(outcome).toEqual({ ids: new Map([['Author', [ann]]]), numUids: 1 });
      expect(seen).toEqual([[new Map([['Author', [ann]]]), true]]);
      const p2 = await idOf('Post', 'slug', 'p2');
      await remove('Post', { id: [p2] });
      expect(await stored()).toEqual({
        '#bob': { handle: 'bob', friends: [] },
        '#cid': { handle: 'cid' },
        '#p': { bio: 'p' },
        '#p1': { slug: 'p1', related: ['#p3'] },
        '#p3': { slug: 'p3' },
      });
    });

    test('deleting an interface\'s or union member\'s objects detaches the fields typed by the interface or union', async () => {
      await add('Box', [{ label: 'b' }]);
      await add('Author', [{ handle: 'ann', favourite: { id: await idOf('Box', 'label', 'b') }, pet: { dogRef: { name: 'rex' } } }]);
      const outcome = await remove('Item', { label: { eq: 'b' } });
      expect(outcome.numUids).toBe(1);
      expect(outcome.ids).toEqual(new Map([['Box', [expect.any(String)]], ['Bag', []]]));
      await remove('Dog', { name: { eq: 'rex' } });
      expect(await storedWithoutTime()).toEqual({ '#ann': { handle: 'ann' } });
    });

    test('a delete detaches only the edges holding a deleted id, in fields typed by the deleted type', async () => {
      await add('Author', [{ handle: 'ann', partner: { handle: 'cid' }, friends: [{ handle: 'bob' }], doc: { key: 'k1' } }]);
      await add('Author', [{ handle: 'dan', partner: { handle: 'eve' }, friends: [{ handle: 'bob' }], note: { key: 'k1' } }]);
      await add('Post', [{ slug: 'p1', author: { handle: 'ann' } }, { slug: 'p2', author: { handle: 'dan' } }]);
      const ann = await idOf('Author', 'handle', 'ann');
      await update('Author', { filter: byHandle('eve'), set: { nick: ann } });
      await remove('Author', byHandle('ann'));
      await remove('Doc', { key: ['k1'] });
      expect(await storedWithoutTime()).toEqual({
        '#bob': { handle: 'bob', friends: ['#dan'] },
        '#cid': { handle: 'cid' },
        '#dan': { handle: 'dan', partner: '#eve', friends: ['#bob'], note: 'k1' },
        '#eve': { handle: 'eve', partner: '#dan', nick: ann },
        '#p1': { slug: 'p1' },
        '#p2': { slug: 'p2', author: '#dan' },
      });
    });

    test('a filter matching nothing deletes nothing', async () => {
      await add('Author', [{ handle: 'ann' }]);
      expect(await remove('Author', byHandle('nobody'))).toEqual({ ids: new Map([['Author', []]]), numUids: 0 });
      expect(Object.keys(await stored())).toEqual(['#ann']);
    });
  });
});
