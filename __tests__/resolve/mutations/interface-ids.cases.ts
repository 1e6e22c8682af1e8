import { checkInterfaceUniqueIds, readAheadInterfaceIds, type InterfaceIds } from '../../../src/resolve/mutations/interface-ids.js';
import { addObjects, updateObjects } from '../../../src/resolve/mutations/run.js';
import type { Write } from '../../../src/resolve/mutations/objects.js';
import type { Store } from '../../../src/store/port.js';
import { stageWrites } from '../../../src/store/staged/staged-store.js';
import { modelOf, recording, refusalOf as refusal, useMutationStore } from './harness';

/**
 * `@id(interface: true)` on its own (interface-ids.ts): which values an add's inputs mention and who holds
 * them (read ahead), and the check before an object takes a value, with the answers it keeps and the
 * values it claims.
 */
const model = modelOf(`
interface Member {
  refID: String! @id(interface: true)
  alias: String @id(interface: true)
  name: String
}

interface Numbered {
  num: Int @id(interface: true)
}

type Staff implements Member & Numbered {
  desk: Int
  code: String @id
}

type Guest implements Member {
  host: Staff
  friends: [Guest]
  pet: Pet
  favourite: Staff @lambda
}

type Ticket implements Numbered {
  seat: String
}

type Club {
  name: String! @id
  members: [Member]
  guests: [Guest]
}

type Cat { name: String }
union Pet = Cat | Staff
`);

/** `holders` as plain data: `interface.field` → [value, holding type ('' for none)] in the order read. */
function plain(holders: InterfaceIds['holders']): Record<string, Array<[unknown, string]>> {
  return Object.fromEntries([...holders].map(([key, byValue]) => [key, [...byValue]]));
}

describe('@id(interface: true) values', () => {
  const db = useMutationStore(model);

  beforeEach(async () => {
    await db.store.collection('Staff').insertMany([{ _id: 'st-1', refID: 's1', alias: 'sam', num: 7, code: 'c1' }]);
    // gu-2 shares its alias with st-1: data from before the field was declared unique across the interface.
    await db.store.collection('Guest').insertMany([{ _id: 'gu-0', refID: 'g0', alias: 'gil' }, { _id: 'gu-2', refID: 'g2', alias: 'sam' }]);
    await db.store.collection('Ticket').insertMany([{ _id: 'ti-8', num: 8 }]);
  });

  describe('readAheadInterfaceIds: the holders of every value an add mentions, nested Refs included', () => {
    test.each([
      ['values of the input and of nested Refs, held by each implementing type or by none', 'Guest',
        [{ refID: 'g9', name: 'Gus', host: { refID: 's1', alias: 'gil', desk: 3 }, friends: [{ refID: 'g0' }, { refID: 'new' }] }, { refID: 'x1' }],
        { 'Member.refID': [['g9', ''], ['s1', 'Staff'], ['g0', 'Guest'], ['new', ''], ['x1', '']], 'Member.alias': [['gil', 'Guest']] }],
      ['numbers, under each interface declaring the field', 'Staff', [{ refID: 'n', num: 8 }, { refID: 'm', num: 7 }, { refID: 'o', num: 9 }],
        { 'Member.refID': [['n', ''], ['m', ''], ['o', '']], 'Numbered.num': [[8, 'Ticket'], [7, 'Staff'], [9, '']] }],
      ['a value mentioned twice is read once', 'Club', [{ name: 'c', guests: [{ refID: 'g0' }, { refID: 'g0' }] }, { name: 'd', guests: [{ refID: 'g0' }] }],
        { 'Member.refID': [['g0', 'Guest']] }],
      ['values that are neither strings nor numbers, and nulls, are not read', 'Guest', [{ refID: null, alias: true }, { refID: ['s1'] }, { refID: { eq: 's1' } }, {}],
        {}],
      ['Refs that are not objects, Refs to an interface or a union, and fields of custom logic are not followed', 'Club',
        [{ name: 'c', guests: [null, 'g0', ['s1'], { refID: 'g5', pet: { refID: 's1' }, favourite: { refID: 's1' } }], members: [{ refID: 's1' }] }],
        { 'Member.refID': [['g5', '']] }],
      ['an input of an interface or of an unknown type mentions nothing', 'Member', [{ refID: 's1' }], {}],
      ['an unknown type', 'Nope', [{ refID: 's1' }], {}],
    ])('%s', async (_case, typeName, inputs, expected) => {
      const read = await db.store.transaction((tx) => readAheadInterfaceIds(model, db.store, tx, typeName, inputs));
      expect(plain(read.holders)).toEqual(expected);
      expect([...read.claimed]).toEqual([]);
    });
  });

  describe('checkInterfaceUniqueIds: before an object takes a value', () => {
    /** Runs the checks of `steps` (type and values) in one mutation over `store`; the kept answers and claims, or the error. */
    async function check(steps: Array<[string, Record<string, unknown>]>, interfaceIds?: InterfaceIds, store: Store = db.store): Promise<unknown> {
      return store.transaction(async (tx) => {
        const write: Write = { model, store: stageWrites(store), tx, created: 0, createdIds: new Map(), interfaceIds };
        try {
          for (const [typeName, values] of steps) await checkInterfaceUniqueIds(write, model.types.get(typeName)!, values);
        } catch (error) {
          const { message, extensions } = error as { message: string; extensions: Record<string, unknown> };
          return { message, ...extensions };
        }
        return { holders: plain(write.interfaceIds!.holders), claimed: [...write.interfaceIds!.claimed] };
      });
    }

    const duplicate = (interfaceName: string, field: string, value: unknown) => ({
      message: `id ${String(value)} already exists for field ${field} in some other implementing type of interface ${interfaceName}`,
      code: 'DUPLICATE_ID', interface: interfaceName, field, value,
    });

    test.each([
      ['values no other type holds are taken and claimed', [['Guest', { refID: 'g1', alias: 'al', name: 's1' }], ['Ticket', { num: 3 }]],
        { holders: { 'Member.refID': [['g1', 'Guest']], 'Member.alias': [['al', 'Guest']], 'Numbered.num': [[3, 'Ticket']] }, claimed: ['Member.refID:"g1"', 'Member.alias:"al"', 'Numbered.num:3'] }],
      ['a value the same type holds is left to its unique index', [['Guest', { refID: 'g0' }]],
        { holders: { 'Member.refID': [['g0', 'Guest']] }, claimed: ['Member.refID:"g0"'] }],
      ['null and absent values take nothing', [['Staff', { refID: null, desk: 1 }]], { holders: {}, claimed: [] }],
      ['a value another type holds in the store', [['Guest', { refID: 'g1' }], ['Guest', { refID: 's1' }]], duplicate('Member', 'refID', 's1')],
      ['a number another type holds', [['Staff', { num: 8 }]], duplicate('Numbered', 'num', 8)],
      ['a second field\'s value another type holds', [['Staff', { refID: 's7', alias: 'gil' }]], duplicate('Member', 'alias', 'gil')],
      ['a value its own type holds, and another type too', [['Staff', { alias: 'sam' }]], duplicate('Member', 'alias', 'sam')],
      ['a value taken earlier in the mutation by another type', [['Guest', { refID: 'z1' }], ['Staff', { refID: 'z1' }]], duplicate('Member', 'refID', 'z1')],
      ['a value taken earlier in the mutation by the same type', [['Guest', { refID: 'z1' }], ['Guest', { refID: 'z1' }]],
        { holders: { 'Member.refID': [['z1', 'Guest']] }, claimed: ['Member.refID:"z1"'] }],
    ] as Array<[string, Array<[string, Record<string, unknown>]>, unknown]>)('%s', async (_case, steps, expected) => {
      expect(await check(steps)).toEqual(expected);
    });

    test('the store is asked in the mutation\'s transaction: a value another type took earlier in it is held', async () => {
      const result = await db.store.transaction(async (tx) => {
        await db.store.collection('Staff').insertMany([{ _id: 'st-w', refID: 'w1' }], { tx });
        const read = await readAheadInterfaceIds(model, db.store, tx, 'Guest', [{ refID: 'w1' }]);
        const write: Write = { model, store: stageWrites(db.store), tx, created: 0, createdIds: new Map() };
        const error = await checkInterfaceUniqueIds(write, model.types.get('Guest')!, { refID: 'w1' }).then(() => undefined, (reason: { extensions: unknown }) => reason.extensions);
        return { readAhead: plain(read.holders), error };
      });
      expect(result).toEqual({ readAhead: { 'Member.refID': [['w1', 'Staff']] }, error: { code: 'DUPLICATE_ID', interface: 'Member', field: 'refID', value: 'w1' } });
    });

    test('answers read ahead are kept: the store is not asked about them again', async () => {
      const { store, calls } = recording(db.store);
      const readAhead: InterfaceIds = {
        holders: new Map([['Member.refID', new Map<unknown, string>([['s1', ''], ['free', 'Staff']])]]),
        claimed: new Set(['Numbered.num:1']),
      };
      expect(await check([['Guest', { refID: 's1' }]], readAhead, store)).toEqual({
        holders: { 'Member.refID': [['s1', 'Guest'], ['free', 'Staff']] }, claimed: ['Numbered.num:1', 'Member.refID:"s1"'],
      });
      expect(await check([['Guest', { refID: 'free' }]], readAhead, store)).toEqual(duplicate('Member', 'refID', 'free'));
      expect(calls).toEqual([]);
    });

    test('a value is asked of the other implementing types once, then known', async () => {
      const { store, calls } = recording(db.store);
      expect(await check([['Guest', { refID: 'q1' }], ['Guest', { refID: 'q1' }], ['Staff', { num: 5 }]], undefined, store)).toEqual({
        holders: { 'Member.refID': [['q1', 'Guest']], 'Numbered.num': [[5, 'Staff']] }, claimed: ['Member.refID:"q1"', 'Numbered.num:5'],
      });
      expect(calls).toEqual(['find Staff {"refID":"q1"}', 'find Ticket {"num":5}']);
    });
  });
});

describe('@id(interface: true) on a field stored under another name (@dgraph(pred:))', () => {
  const stored = modelOf(`
interface Member {
  refID: String! @id(interface: true) @dgraph(pred: "Member.ref")
}

type Staff implements Member {
  desk: Int
}

type Guest implements Member {
  host: String
}
`);
  const db = useMutationStore(stored);
  const taken = (mutation: string) => ({
    message: `couldn't rewrite mutation ${mutation} because failed to rewrite mutation payload because id s1 already exists for field refID in some other implementing type of interface Member`,
    code: 'DUPLICATE_ID', interface: 'Member', field: 'refID', value: 's1',
  });


  beforeEach(async () => {
    await addObjects(stored, db.store, 'Staff', [{ refID: 's1', desk: 4 }], false);
  });

  test('an add of another implementing type with the value is refused, and writes nothing', async () => {
    expect(await refusal(addObjects(stored, db.store, 'Guest', [{ refID: 's2' }, { refID: 's1' }], false))).toEqual(taken('addGuest'));
    expect(await db.contents('Guest')).toEqual([]);
  });

  test('an update of another implementing type to the value is refused', async () => {
    await addObjects(stored, db.store, 'Guest', [{ refID: 'g1' }], false);
    expect(await refusal(updateObjects(stored, db.store, 'Guest', { filter: {}, set: { refID: 's1' } }))).toEqual(taken('updateGuest'));
    expect((await db.documents('Guest')).map((guest) => Object.values(guest))).toEqual([[expect.any(String), 'g1']]);
  });

  test('the same type keeps its own value on an upsert-free update of other fields', async () => {
    const outcome = await updateObjects(stored, db.store, 'Staff', { filter: {}, set: { refID: 's1', desk: 5 } });
    expect(outcome.numUids).toBe(1);
  });
});
