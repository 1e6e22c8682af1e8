import { prepareReferenceGuard, type ReferenceGuard } from '../../../src/resolve/mutations/reference-guard.js';
import { noReferences, type References } from '../../../src/resolve/mutations/references.js';
import type { FieldModel } from '../../../src/sdl/model.js';
import type { Store, StoredDocument, Transaction } from '../../../src/store/port.js';
import { constraint, modelOf, recording, unrestricted, useMutationStore } from './harness';

/**
 * The reference guard on its own (reference-guard.ts): the verdicts it reads before a mutation about the
 * objects the input names, what it answers during the mutation, and the store calls it makes for them.
 * Every object has a fixed `_id`; after the guard is prepared, each test changes the store the way the
 * mutation's own writes could, so an answer shows whether it is the verdict read before or one read now.
 */
const model = modelOf(`
interface Wearer {
  name: String! @id
  badge: Badge
}

type User implements Wearer {
  who: String
  tasks: [Task] @hasInverse(field: owner)
}

type Robot implements Wearer {
  serial: Int
}

type Task {
  title: String! @id
  who: String
  owner: User
}

type Badge {
  code: String! @id
  who: String
  holder: Wearer @hasInverse(field: badge)
}
`);

const field = (typeName: string, name: string): FieldModel => model.types.get(typeName)!.fieldsByName.get(name)!;
const BADGE_HOLDER = field('Badge', 'holder');
const TASK_OWNER = field('Task', 'owner');

const USERS: StoredDocument[] = ['ann', 'bob', 'cid', 'dan', 'eve', 'fay'].map((name) => ({ _id: `u-${name}`, name }));
const TASKS: StoredDocument[] = [
  { _id: 't-a1', title: 'a1', who: 'alice', owner: 'u-ann' },
  { _id: 't-b1', title: 'b1', who: 'bob', owner: 'u-bob' },
  { _id: 't-b2', title: 'b2', who: 'bob' },
  { _id: 't-c1', title: 'c1', who: 'alice' },
  { _id: 't-c2', title: 'c2', who: 'bob' },
];
const BADGES: StoredDocument[] = [
  { _id: 'g-a', code: 'a', who: 'alice', holder: 'u-ann' },
  { _id: 'g-b', code: 'b', who: 'bob', holder: 'u-bob' },
  { _id: 'g-c', code: 'c', who: 'bob', holder: 'u-cid' },
  { _id: 'g-d', code: 'd', who: 'bob', holder: 'u-dan' },
  { _id: 'g-f', code: 'f', who: 'bob', holder: 'u-fay' },
  { _id: 'g-r', code: 'r', who: 'bob', holder: 'r-1' },
];

/** What the mutation's input names (candidates per type by id or by `@id` value), and what it selected itself. */
interface Scenario {
  query?: Record<string, Record<string, unknown>>;
  update?: Record<string, Record<string, unknown>>;
  ids?: Record<string, string[]>;
  values?: Record<string, Record<string, unknown[]>>;
  /** One-to-one edges the input may link, as `Holder.field`. */
  oneToOne?: string[];
  selected?: Record<string, string[]>;
  /** Objects the mutation wrote in its transaction before the guard was prepared. */
  writtenBefore?: Record<string, StoredDocument[]>;
}

function referencesOf(scenario: Scenario): References {
  const references = noReferences();
  const typeNames = new Set([...Object.keys(scenario.ids ?? {}), ...Object.keys(scenario.values ?? {})]);
  for (const typeName of typeNames) {
    references.byType.set(typeName, {
      ids: new Set(scenario.ids?.[typeName] ?? []),
      values: new Map(Object.entries(scenario.values?.[typeName] ?? {}).map(([name, values]) => [name, new Set(values)])),
    });
  }
  for (const key of scenario.oneToOne ?? []) {
    const [holderType, fieldName] = key.split('.') as [string, string];
    const holderField = field(holderType, fieldName);
    references.oneToOne.set(key, { holderType, field: holderField, targetType: holderField.of.kind === 'relation' ? holderField.of.target : '' });
  }
  return references;
}

/** A check's outcome: 'passes', or the error's code and message. */
async function outcome(check: Promise<unknown>): Promise<unknown> {
  return check.then(() => 'passes', (error: { message: string; extensions?: { code?: unknown } }) => ({ code: error.extensions?.code, message: error.message }));
}

const refusedUpdate = (change: string, typeName: string, id: string) => ({
  code: 'FORBIDDEN',
  message: `${change} would change the existing ${typeName} ${id}, which the update rule of ${typeName} does not allow for this caller; nothing was written`,
});

const refusedDetach = (target: string, holder: string) => ({
  code: 'FORBIDDEN',
  message: `linking Badge.holder would take ${target} from the existing Badge ${holder}, which the update rule of Badge does not allow for this caller; nothing was written`,
});

describe('the reference guard', () => {
  const db = useMutationStore(model);

  beforeEach(async () => {
    await db.store.collection('User').insertMany(USERS);
    await db.store.collection('Task').insertMany(TASKS);
    await db.store.collection('Badge').insertMany(BADGES);
    await db.store.collection('Robot').insertMany([{ _id: 'r-1', name: 'robo' }]);
  });

  interface Mutation {
    guard: ReferenceGuard;
    /** Writes `fields` on the object `id` of `typeName` in the mutation's transaction, as a write of the mutation would. */
    set(typeName: string, id: string, fields: Record<string, unknown>): Promise<void>;
    insert(typeName: string, document: StoredDocument): Promise<void>;
    /** Records an object as created by the mutation. */
    create(typeName: string, id: string): void;
  }

  /** Prepares the guard for `scenario` in a transaction over `store`, then runs `work` in the same transaction. */
  async function during<T>(scenario: Scenario, work: (mutation: Mutation) => Promise<T>, store: Store = db.store): Promise<T> {
    return store.transaction(async (tx: Transaction) => {
      for (const [typeName, documents] of Object.entries(scenario.writtenBefore ?? {})) await db.store.collection(typeName).insertMany(documents, { tx });
      const created = new Map<string, Set<string>>();
      const selected = new Map(Object.entries(scenario.selected ?? {}));
      const guard = await prepareReferenceGuard({
        model, store, tx, created,
        query: scenario.query ? constraint(scenario.query) : unrestricted,
        update: scenario.update ? constraint(scenario.update) : unrestricted,
      }, referencesOf(scenario), selected);
      return work({
        guard,
        set: async (typeName, id, fields) => void await db.store.collection(typeName).updateMany({ _id: id }, { $set: fields }, { tx }),
        insert: async (typeName, document) => void await db.store.collection(typeName).insertMany([document], { tx }),
        create: (typeName, id) => void created.set(typeName, (created.get(typeName) ?? new Set()).add(id)),
      });
    });
  }

  /** Every task's and badge's `who` turned over (alice ↔ bob): verdicts read now would all change. */
  async function turnOver(mutation: Mutation): Promise<void> {
    for (const [typeName, documents] of [['Task', TASKS], ['Badge', BADGES]] as const) {
      for (const document of documents) await mutation.set(typeName, document._id, { who: document.who === 'alice' ? 'bob' : 'alice' });
    }
  }

  describe('isVisible: whether a Ref may name an existing object (the query rule)', () => {
    const scenario: Scenario = {
      query: { Task: { who: 'alice' }, Badge: { who: 'alice' } },
      ids: { Task: ['t-b1', 'u-ann'], User: ['u-bob'] },
      values: { Task: { title: ['a1', 'zz'] } },
    };

    test.each([
      ['a candidate named by value, visible before the mutation', 'Task', 't-a1', true],
      ['a candidate named by id, hidden before the mutation', 'Task', 't-b1', false],
      ['an object the input did not name, visible now', 'Task', 't-c2', true],
      ['an object the input did not name, hidden now', 'Task', 't-c1', false],
      ['an id no object has', 'Task', 't-zz', false],
      ['an id of another type', 'Task', 'u-ann', false],
      ['an object the mutation created, whatever its rule says', 'Task', 't-new', true],
      ['an id created in another type', 'Task', 'u-new', false],
      ['a type without a query rule', 'User', 'u-nobody', true],
      ['a type with a rule whose objects the input did not name, visible now', 'Badge', 'g-c', true],
      ['a type with a rule whose objects the input did not name, hidden now', 'Badge', 'g-a', false],
    ])('%s', async (_case, typeName, id, expected) => {
      const visible = await during(scenario, async (mutation) => {
        await turnOver(mutation);
        await mutation.insert('Task', { _id: 't-new', title: 'new', who: 'bob' });
        await mutation.insert('Task', { _id: 'u-new', title: 'clash', who: 'bob' });
        mutation.create('Task', 't-new');
        mutation.create('User', 'u-new');
        return mutation.guard.isVisible(typeName, id);
      });
      expect(visible).toBe(expected);
    });
  });

  describe('requireUpdatable: a write to an existing object needs its update rule', () => {
    const scenario: Scenario = { update: { Task: { who: 'alice' } }, ids: { Task: ['t-a1', 't-b1', 't-b2'] }, selected: { Task: ['t-b2'], User: ['t-c1'] } };

    test.each([
      ['a candidate the rule allowed before the mutation', 'Task', 't-a1', 'passes'],
      ['a candidate the rule refused before the mutation', 'Task', 't-b1', refusedUpdate('the upsert of Task', 'Task', 't-b1')],
      ['a candidate refused before, but selected by the mutation under its update rule', 'Task', 't-b2', 'passes'],
      ['an object the mutation created', 'Task', 't-new', 'passes'],
      ['an object the input did not name, allowed now', 'Task', 't-c2', 'passes'],
      ['an object the input did not name, refused now (selected only in another type)', 'Task', 't-c1', refusedUpdate('the upsert of Task', 'Task', 't-c1')],
      ['a type without an update rule', 'User', 'u-bob', 'passes'],
    ])('%s', async (_case, typeName, id, expected) => {
      const result = await during(scenario, async (mutation) => {
        await turnOver(mutation);
        await mutation.insert('Task', { _id: 't-new', title: 'new', who: 'bob' });
        mutation.create('Task', 't-new');
        return outcome(mutation.guard.requireUpdatable(typeName, id, 'the upsert of Task'));
      });
      expect(result).toEqual(expected);
    });

    test('an object allowed once is the mutation\'s to change: later checks pass without asking again', async () => {
      const results = await during(scenario, async (mutation) => {
        const first = await outcome(mutation.guard.requireUpdatable('Task', 't-c1', 'the upsert of Task'));
        await turnOver(mutation);
        return [first, await outcome(mutation.guard.requireUpdatable('Task', 't-c1', 'the upsert of Task')), await outcome(mutation.guard.changed('Task', 't-c1', TASK_OWNER))];
      });
      expect(results).toEqual(['passes', 'passes', 'passes']);
    });

    test('changed: an edge written on an existing object names the field in the refusal', async () => {
      const results = await during(scenario, async (mutation) => [
        await outcome(mutation.guard.changed('Task', 't-b1', TASK_OWNER)),
        await outcome(mutation.guard.changed('Task', 't-a1', TASK_OWNER)),
      ]);
      expect(results).toEqual([refusedUpdate('linking or unlinking Task.owner', 'Task', 't-b1'), 'passes']);
    });
  });

  describe('beforeDetach: taking a one-to-one target from its previous holder needs that holder\'s update rule', () => {
    const scenario: Scenario = {
      update: { Badge: { who: 'alice' } },
      ids: { User: ['u-ann', 'u-bob'], Robot: ['r-1'] },
      oneToOne: ['Badge.holder'],
      selected: { User: ['u-fay'], Badge: ['g-d'] },
    };

    test.each([
      ['a target named by the input, its holder refused before the mutation', 'Badge', BADGE_HOLDER, 'u-bob', 'g-new', refusedDetach('u-bob', 'g-b')],
      ['a target named by the input, its holder allowed before the mutation', 'Badge', BADGE_HOLDER, 'u-ann', 'g-new', 'passes'],
      ['a target the mutation selected, its holder refused before the mutation', 'Badge', BADGE_HOLDER, 'u-fay', 'g-new', refusedDetach('u-fay', 'g-f')],
      ['a target of another implementing type named by the input, its holder refused before the mutation', 'Badge', BADGE_HOLDER, 'r-1', 'g-new', refusedDetach('r-1', 'g-r')],
      ['a target whose holder is the new holder itself', 'Badge', BADGE_HOLDER, 'u-bob', 'g-b', 'passes'],
      ['a target not named, its holder refused now', 'Badge', BADGE_HOLDER, 'u-cid', 'g-new', refusedDetach('u-cid', 'g-c')],
      ['a target not named, held by an object the mutation selected', 'Badge', BADGE_HOLDER, 'u-dan', 'g-new', 'passes'],
      ['a target not named, held by an object the mutation created', 'Badge', BADGE_HOLDER, 'u-eve', 'g-new', 'passes'],
      ['a target the mutation created', 'Badge', BADGE_HOLDER, 'u-new', 'g-new', 'passes'],
      ['a holder type without an update rule', 'Task', TASK_OWNER, 'u-bob', 't-new', 'passes'],
    ])('%s', async (_case, holderType, holderField, target, newHolder, expected) => {
      const result = await during(scenario, async (mutation) => {
        await turnOver(mutation);
        await mutation.set('Badge', 'g-c', { who: 'bob' });
        await mutation.set('Badge', 'g-d', { who: 'bob' });
        await mutation.insert('Badge', { _id: 'g-e', code: 'e', who: 'bob', holder: 'u-eve' });
        await mutation.insert('Badge', { _id: 'g-n', code: 'n', who: 'bob', holder: 'u-new' });
        mutation.create('Badge', 'g-e');
        mutation.create('User', 'u-new');
        return outcome(mutation.guard.beforeDetach(holderType, holderField, target, newHolder));
      });
      expect(result).toEqual(expected);
    });
  });

  describe('beforeDetach without verdicts read ahead', () => {
    test('a one-to-one edge the input did not name: the holders are read when the target is taken', async () => {
      const results = await during({ update: { Badge: { who: 'alice' } }, ids: { User: ['u-ann', 'u-bob'] } }, async (mutation) => [
        await outcome(mutation.guard.beforeDetach('Badge', BADGE_HOLDER, 'u-bob', 'g-new')),
        await outcome(mutation.guard.beforeDetach('Badge', BADGE_HOLDER, 'u-ann', 'g-new')),
      ]);
      expect(results).toEqual([refusedDetach('u-bob', 'g-b'), 'passes']);
    });

    test('a one-to-one target the mutation selected, its type not named by the input: its holders were read before', async () => {
      const results = await during({ update: { Badge: { who: 'alice' } }, oneToOne: ['Badge.holder'], selected: { User: ['u-fay'] } }, async (mutation) => {
        await turnOver(mutation);
        return [await outcome(mutation.guard.beforeDetach('Badge', BADGE_HOLDER, 'u-fay', 'g-new')), await outcome(mutation.guard.beforeDetach('Badge', BADGE_HOLDER, 'u-ann', 'g-new'))];
      });
      expect(results).toEqual([refusedDetach('u-fay', 'g-f'), refusedDetach('u-ann', 'g-a')]);
    });
  });

  describe('a one-to-one edge whose holder type has no update rule', () => {
    test('no holders are read, even for targets read for a rule of their own, and taking a target asks nothing', async () => {
      const { store, calls } = recording(db.store);
      const result = await during({ query: { User: { who: 'nobody' } }, ids: { User: ['u-bob'] }, oneToOne: ['Badge.holder'], selected: { User: ['u-fay'] } },
        async (mutation) => outcome(mutation.guard.beforeDetach('Badge', BADGE_HOLDER, 'u-bob', 'g-new')), store);
      expect(result).toBe('passes');
      expect(calls).toEqual(['find User {"_id":{"$in":["u-bob"]}}', 'find User {"_id":{"$in":["u-bob"]},"who":"nobody"}']);
    });
  });

  describe('the verdicts are read in the mutation\'s transaction', () => {
    test('objects and edges the mutation wrote before the guard was prepared count, as they were then', async () => {
      const results = await during({
        query: { Task: { who: 'alice' } },
        update: { Task: { who: 'alice' }, Badge: { who: 'alice' } },
        ids: { Task: ['t-tx'], User: ['u-eve'] },
        oneToOne: ['Badge.holder'],
        writtenBefore: { Task: [{ _id: 't-tx', title: 'tx', who: 'alice' }], Badge: [{ _id: 'g-tx', code: 'tx', who: 'bob', holder: 'u-eve' }] },
      }, async (mutation) => {
        await mutation.set('Task', 't-tx', { who: 'bob' });
        await mutation.set('Badge', 'g-tx', { who: 'alice' });
        return [
          await mutation.guard.isVisible('Task', 't-tx'),
          await outcome(mutation.guard.requireUpdatable('Task', 't-tx', 'the upsert of Task')),
          await outcome(mutation.guard.beforeDetach('Badge', BADGE_HOLDER, 'u-eve', 'g-new')),
        ];
      });
      expect(results).toEqual([true, 'passes', refusedDetach('u-eve', 'g-tx')]);
    });
  });

  describe('store calls: every verdict is read before the mutation, one read per type and rule', () => {
    test('candidates of ruled types and one-to-one targets are read, then their holders; checks on them ask nothing more, others one read each', async () => {
      const { store, calls } = recording(db.store);
      const answers = await during({
        query: { Task: { who: 'alice' } },
        update: { Task: { who: 'alice' }, Badge: { who: 'alice' } },
        ids: { Task: ['t-a1', 't-b1'], User: ['u-ann'] },
        values: { User: { name: ['bob'] }, Badge: { code: ['a'] } },
        oneToOne: ['Badge.holder'],
      }, async (mutation) => {
        const prepared = calls.length;
        const reads = calls.slice();
        const checks = [
          await mutation.guard.isVisible('Task', 't-a1'),
          await mutation.guard.isVisible('Task', 't-b1'),
          await outcome(mutation.guard.requireUpdatable('Task', 't-b1', 'the upsert of Task')),
          await outcome(mutation.guard.beforeDetach('Badge', BADGE_HOLDER, 'u-bob', 'g-new')),
          await outcome(mutation.guard.beforeDetach('Badge', BADGE_HOLDER, 'u-ann', 'g-new')),
        ];
        const asked = calls.slice(prepared);
        const now = [await mutation.guard.isVisible('Task', 't-c1'), await outcome(mutation.guard.beforeDetach('Badge', BADGE_HOLDER, 'u-cid', 'g-new'))];
        return { reads, checks, asked, now, askedNow: calls.slice(prepared) };
      }, store);
      const { reads, ...answered } = answers;
      expect(answered).toEqual({
        checks: [true, false, refusedUpdate('the upsert of Task', 'Task', 't-b1'), refusedDetach('u-bob', 'g-b'), 'passes'],
        asked: [],
        now: [true, refusedDetach('u-cid', 'g-c')],
        askedNow: ['find Task {"_id":"t-c1","who":"alice"}', 'find Badge {"holder":{"$in":["u-cid"]},"$nor":[{"who":"alice"}]}'],
      });
      expect(reads).toEqual([
        'find Task {"_id":{"$in":["t-a1","t-b1"]}}',
        'find Task {"_id":{"$in":["t-a1","t-b1"]},"who":"alice"}',
        'find Task {"_id":{"$in":["t-a1","t-b1"]},"who":"alice"}',
        'find User {"_id":{"$in":["u-ann"]}}',
        'find User {"name":{"$in":["bob"]}}',
        'find Badge {"code":{"$in":["a"]}}',
        'find Badge {"_id":{"$in":["g-a"]},"who":"alice"}',
        'find Badge {"holder":{"$in":["u-ann","u-bob"]},"$nor":[{"who":"alice"}]}',
      ]);
    });

    test('types without a rule and not a one-to-one target are not read; neither are one-to-one edges whose holder has no update rule', async () => {
      const { store, calls } = recording(db.store);
      await during({
        update: { Task: { who: 'alice' } },
        ids: { User: ['u-ann'], Task: [] },
        values: { Badge: { code: ['a'] } },
        oneToOne: ['Badge.holder'],
      }, async () => undefined, store);
      expect(calls).toEqual([]);
    });
  });
});
