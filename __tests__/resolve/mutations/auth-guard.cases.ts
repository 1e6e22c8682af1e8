import { addObjects, deleteObjects, updateObjects, type MutationAuth } from '../../../src/resolve/mutations/run.js';
import { authOf, failureOf as failure, modelOf, storedByLabel, useMutationStore } from './harness';

/**
 * `@auth` in mutations, with the rules given as plain match documents per type: what an add, update or
 * delete may touch, the existing objects its Refs may name or change, and that a refusal writes nothing.
 */
const model = modelOf(`
type User {
  id: ID!
  name: String! @id
  tasks: [Task] @hasInverse(field: owner)
  badge: Badge
  friends: [User] @hasInverse(field: friends)
  partner: User @hasInverse(field: partner)
}

type Task {
  id: ID!
  title: String! @id
  who: String
  owner: User
}

type Badge {
  id: ID!
  code: String! @id
  who: String
  holder: User @hasInverse(field: badge)
}
`);

describe('@auth in mutations', () => {
  const db = useMutationStore(model);
  const stored = () => storedByLabel(db.store, { User: 'name', Task: 'title', Badge: 'code' });

  const ALICE_TASKS = { Task: { who: 'alice' } };
  const ALICE_BADGES = { Badge: { who: 'alice' } };

  async function idOf(collection: string, field: string, value: string): Promise<string> {
    const [found] = await db.store.collection(collection).find({ [field]: value });
    if (!found) throw new Error(`no ${collection} with ${field} ${value}`);
    return found._id;
  }


  /** Expects the mutation to be refused as `expected` (with ids written `<title>`), leaving the store as it was. */
  async function expectRefused(mutation: () => Promise<unknown>, expected: { code: string; message: string }): Promise<void> {
    const before = await stored();
    const ids = new Map<string, string>();
    for (const [collection, field] of [['User', 'name'], ['Task', 'title'], ['Badge', 'code']] as const) {
      for (const document of await db.store.collection(collection).find({})) ids.set(document._id, `<${String(document[field])}>`);
    }
    const { code, message } = await failure(mutation());
    expect({ code, message: message.replace(/\b[0-9a-f]{24}\b/g, (id) => ids.get(id) ?? id) }).toEqual(expected);
    expect(await stored()).toEqual(before);
  }

  beforeEach(async () => {
    await addObjects(model, db.store, 'User', [{ name: 'alice' }, { name: 'bob' }], false);
    await addObjects(model, db.store, 'Task', [
      { title: 'a1', who: 'alice', owner: { name: 'alice' } },
      { title: 'b1', who: 'bob', owner: { name: 'bob' } },
      { title: 'b2', who: 'bob' },
    ], false);
    await addObjects(model, db.store, 'Badge', [{ code: 'ba', who: 'alice', holder: { name: 'alice' } }, { code: 'bb', who: 'bob', holder: { name: 'bob' } }], false);
  });

  const FORBIDDEN = 'FORBIDDEN';

  describe('add', () => {
    test('new objects must satisfy the add rule', async () => {
      const auth = authOf({ add: ALICE_TASKS });
      await expectRefused(() => addObjects(model, db.store, 'Task', [{ title: 'n1', who: 'alice' }, { title: 'n2', who: 'bob' }], false, auth), {
        code: FORBIDDEN, message: '1 of the 2 new Task objects do not satisfy the add rule of Task; nothing was written',
      });
      await addObjects(model, db.store, 'Task', [{ title: 'n1', who: 'alice' }], false, auth);
      expect((await stored())['#n1']).toEqual({ title: 'n1', who: 'alice' });
    });

    test('a Ref by id to an object the query rule hides is not found; a visible one links', async () => {
      const auth = authOf({ query: ALICE_TASKS });
      const b2 = await idOf('Task', 'title', 'b2');
      await expectRefused(() => addObjects(model, db.store, 'User', [{ name: 'cid', tasks: [{ id: b2 }] }], false, auth), {
        code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation addUser because failed to rewrite mutation payload because TaskRef: no Task with id "<b2>"',
      });
      await addObjects(model, db.store, 'User', [{ name: 'cid', tasks: [{ id: await idOf('Task', 'title', 'a1') }] }], false, auth);
      expect((await stored())['#a1']).toEqual({ title: 'a1', who: 'alice', owner: '#cid' });
    });

    test('a Ref by @id value to a hidden object is a duplicate of it, as an add of it would be', async () => {
      await expectRefused(() => addObjects(model, db.store, 'User', [{ name: 'cid', tasks: [{ title: 'b2' }] }], false, authOf({ query: ALICE_TASKS })), {
        code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation addUser because failed to rewrite mutation payload because id b2 already exists for field title inside type Task',
      });
    });

    test('linking from the derived side changes the stored side: it needs that object\'s update rule', async () => {
      const auth = authOf({ update: ALICE_TASKS });
      await expectRefused(() => addObjects(model, db.store, 'User', [{ name: 'cid', tasks: [{ title: 'a1' }, { title: 'b2' }] }], false, auth), {
        code: FORBIDDEN, message: 'linking or unlinking Task.owner would change the existing Task <b2>, which the update rule of Task does not allow for this caller; nothing was written',
      });
      await addObjects(model, db.store, 'User', [{ name: 'cid', tasks: [{ title: 'a1' }, { title: 'new', who: 'x' }] }], false, auth);
      expect(await stored()).toMatchObject({ '#a1': { owner: '#cid' }, '#new': { title: 'new', who: 'x', owner: '#cid' } });
    });

    test('an upsert that finds an object needs its update rule; one it may update is updated', async () => {
      const auth = authOf({ update: ALICE_TASKS });
      await expectRefused(() => addObjects(model, db.store, 'Task', [{ title: 'b1', who: 'alice' }], true, auth), {
        code: FORBIDDEN, message: 'the upsert of Task would change the existing Task <b1>, which the update rule of Task does not allow for this caller; nothing was written',
      });
      await addObjects(model, db.store, 'Task', [{ title: 'a1', who: 'alice', owner: { name: 'bob' } }], true, auth);
      expect((await stored())['#a1']).toEqual({ title: 'a1', who: 'alice', owner: '#bob' });
    });

    test('taking a one-to-one target from a previous holder the caller may not update is refused', async () => {
      const auth = authOf({ update: ALICE_BADGES });
      await expectRefused(() => addObjects(model, db.store, 'Badge', [{ code: 'bc', who: 'alice', holder: { name: 'bob' } }], false, auth), {
        code: FORBIDDEN, message: 'linking Badge.holder would take <bob> from the existing Badge <bb>, which the update rule of Badge does not allow for this caller; nothing was written',
      });
      await addObjects(model, db.store, 'Badge', [{ code: 'bc', who: 'bob', holder: { name: 'alice' } }], false, auth);
      expect(await stored()).toMatchObject({ '#ba': { code: 'ba', who: 'alice' }, '#bc': { code: 'bc', who: 'bob', holder: '#alice' } });
      expect((await stored())['#ba']).toEqual({ code: 'ba', who: 'alice' });
    });

    test('a one-to-one target created by the same mutation has no previous holder to ask', async () => {
      await addObjects(model, db.store, 'Badge', [{ code: 'bc', who: 'bob', holder: { name: 'cid' } }], false, authOf({ update: ALICE_BADGES }));
      expect((await stored())['#bc']).toEqual({ code: 'bc', who: 'bob', holder: '#cid' });
    });
  });

  describe('update', () => {
    test('only the objects the update rule allows are updated and counted', async () => {
      const outcome = await updateObjects(model, db.store, 'Task', { filter: {}, set: { who: 'alice' } }, authOf({ update: ALICE_TASKS }));
      expect(outcome).toEqual({ ids: new Map([['Task', [await idOf('Task', 'title', 'a1')]]]), numUids: 1 });
      expect(await stored()).toMatchObject({ '#b1': { who: 'bob' }, '#b2': { who: 'bob' } });
    });

    test('a has in the filter counts only the related objects the query rule shows', async () => {
      const outcome = await updateObjects(model, db.store, 'User', { filter: { has: ['tasks'] }, set: {} }, authOf({ query: ALICE_TASKS }));
      expect(outcome).toEqual({ ids: new Map([['User', [await idOf('User', 'name', 'alice')]]]), numUids: 1 });
    });

    test('linking a one-to-one target away from a holder the caller may not update is refused; from one it may update, allowed', async () => {
      const auth = authOf({ update: ALICE_BADGES });
      await expectRefused(() => updateObjects(model, db.store, 'Badge', { filter: { code: { eq: 'ba' } }, set: { holder: { name: 'bob' } } }, auth), {
        code: FORBIDDEN, message: 'linking Badge.holder would take <bob> from the existing Badge <bb>, which the update rule of Badge does not allow for this caller; nothing was written',
      });
      await addObjects(model, db.store, 'Badge', [{ code: 'bc', who: 'alice' }], false);
      await updateObjects(model, db.store, 'Badge', { filter: { code: { eq: 'bc' } }, set: { holder: { name: 'alice' } } }, auth);
      expect(await stored()).toMatchObject({ '#ba': { code: 'ba', who: 'alice' }, '#bb': { code: 'bb', who: 'bob', holder: '#bob' }, '#bc': { code: 'bc', who: 'alice', holder: '#alice' } });
      expect((await stored())['#ba']).toEqual({ code: 'ba', who: 'alice' });
    });

    test('unlinking from the derived side needs the stored side\'s update rule', async () => {
      const auth = authOf({ update: ALICE_TASKS });
      await expectRefused(() => updateObjects(model, db.store, 'User', { filter: { name: { eq: 'bob' } }, remove: { tasks: [{ title: 'b1' }] } }, auth), {
        code: FORBIDDEN, message: 'linking or unlinking Task.owner would change the existing Task <b1>, which the update rule of Task does not allow for this caller; nothing was written',
      });
    });

    test('a symmetric edge changes both ends: the other end needs its update rule', async () => {
      const auth: MutationAuth = authOf({ update: { User: { name: 'alice' } } });
      await expectRefused(() => updateObjects(model, db.store, 'User', { filter: {}, set: { friends: [{ name: 'bob' }] } }, auth), {
        code: FORBIDDEN, message: 'linking or unlinking User.friends would change the existing User <bob>, which the update rule of User does not allow for this caller; nothing was written',
      });
      await updateObjects(model, db.store, 'User', { filter: {}, set: { friends: [{ name: 'cid' }] } }, auth);
      expect(await stored()).toMatchObject({ '#alice': { friends: ['#cid'] }, '#cid': { friends: ['#alice'] } });
    });
  });

  describe('edges that a write leaves as they were ask no rule', () => {
    test('linking an edge already there, or unlinking one not there, passes whoever holds it', async () => {
      const tasksOfAlice = authOf({ update: ALICE_TASKS });
      await updateObjects(model, db.store, 'User', { filter: { name: { eq: 'bob' } }, set: { tasks: [{ title: 'b1' }] }, remove: { tasks: [{ title: 'b2' }] } }, tasksOfAlice);
      await addObjects(model, db.store, 'User', [{ name: 'cid', friends: [{ name: 'alice' }] }], false);
      const onlyAlice = authOf({ update: { User: { name: 'alice' } } });
      await updateObjects(model, db.store, 'User', { filter: { name: { eq: 'alice' } }, set: { friends: [{ name: 'cid' }] }, remove: { friends: [{ name: 'bob' }] } }, onlyAlice);
      expect(await stored()).toMatchObject({ '#b1': { owner: '#bob' }, '#b2': { title: 'b2', who: 'bob' }, '#alice': { friends: ['#cid'] }, '#cid': { friends: ['#alice'] } });
    });

    test('unlinking a symmetric edge changes the other end too: it needs that end\'s update rule', async () => {
      await addObjects(model, db.store, 'User', [{ name: 'cid', friends: [{ name: 'alice' }] }], false);
      await expectRefused(() => updateObjects(model, db.store, 'User', { filter: { name: { eq: 'alice' } }, remove: { friends: [{ name: 'cid' }] } }, authOf({ update: { User: { name: 'alice' } } })), {
        code: FORBIDDEN, message: 'linking or unlinking User.friends would change the existing User <cid>, which the update rule of User does not allow for this caller; nothing was written',
      });
    });

    test('a symmetric single edge takes both ends from their previous partners: each needs its update rule', async () => {
      await addObjects(model, db.store, 'User', [{ name: 'cid', partner: { name: 'alice' } }], false);
      const auth = authOf({ update: { User: { name: { $in: ['alice', 'bob'] } } } });
      await expectRefused(() => updateObjects(model, db.store, 'User', { filter: { name: { eq: 'alice' } }, set: { partner: { name: 'bob' } } }, auth), {
        code: FORBIDDEN, message: 'linking User.partner would take <alice> from the existing User <cid>, which the update rule of User does not allow for this caller; nothing was written',
      });
      await expectRefused(() => updateObjects(model, db.store, 'User', { filter: { name: { eq: 'bob' } }, set: { partner: { name: 'alice' } } }, auth), {
        code: FORBIDDEN, message: 'linking User.partner would take <alice> from the existing User <cid>, which the update rule of User does not allow for this caller; nothing was written',
      });
    });
  });

  describe('delete', () => {
    test('only the objects the delete rule allows are deleted', async () => {
      const outcome = await deleteObjects(model, db.store, 'Task', {}, async () => {}, authOf({ delete: ALICE_TASKS }));
      expect(outcome).toEqual({ ids: new Map([['Task', [expect.any(String)]]]), numUids: 1 });
      expect(Object.keys(await stored()).filter((label) => /^#[ab]\d$/.test(label)).sort()).toEqual(['#b1', '#b2']);
    });

    test('a has in the filter counts only the related objects the query rule shows', async () => {
      await deleteObjects(model, db.store, 'User', { has: ['tasks'] }, async () => {}, authOf({ query: ALICE_TASKS }));
      expect(Object.keys(await stored()).filter((label) => ['#alice', '#bob'].includes(label))).toEqual(['#bob']);
    });
  });
});
