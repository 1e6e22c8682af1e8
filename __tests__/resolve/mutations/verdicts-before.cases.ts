import { addObjects } from '../../../src/resolve/mutations/run.js';
import { authOf, modelOf, storedByLabel, useMutationStore } from './harness';

/**
 * `@auth` verdicts are those of the state before the mutation (as Dgraph's update rules): an object one
 * input changes keeps, for the rest of the mutation, the verdict it had when the mutation started.
 */
const model = modelOf(`
type User {
  id: ID!
  name: String! @id
  badge: Badge
}

type Badge {
  id: ID!
  code: String! @id
  who: String
  holder: User @hasInverse(field: badge)
}
`);

describe('@auth verdicts are read before the mutation', () => {
  const db = useMutationStore(model);
  const stored = () => storedByLabel(db.store, { User: 'name', Badge: 'code' });

  async function idOf(collection: string, field: string, value: string): Promise<string> {
    const [found] = await db.store.collection(collection).find({ [field]: value });
    if (!found) throw new Error(`no ${collection} with ${field} ${value}`);
    return found._id;
  }

  beforeEach(async () => {
    await addObjects(model, db.store, 'User', [{ name: 'alice' }, { name: 'bob' }], false);
    await addObjects(model, db.store, 'Badge', [{ code: 'ba', who: 'alice', holder: { name: 'alice' } }, { code: 'bb', who: 'bob', holder: { name: 'bob' } }], false);
  });

  test('an upsert finds an object an earlier input took out of the update rule: the verdict from before still allows it', async () => {
    // The caller may update the badge alice holds. The first input takes alice from badge ba (allowed: ba is
    // hers before the mutation), which leaves ba outside the rule; the second input upserts ba itself.
    const auth = authOf({ update: { Badge: { holder: await idOf('User', 'name', 'alice') } } });
    const outcome = await addObjects(model, db.store, 'Badge', [{ code: 'bc', who: 'carol', holder: { name: 'alice' } }, { code: 'ba', who: 'dan' }], true, auth);
    expect(outcome).toEqual({ ids: new Map([['Badge', [await idOf('Badge', 'code', 'bc'), await idOf('Badge', 'code', 'ba')]]]), numUids: 1 });
    expect(await stored()).toEqual({
      '#alice': { name: 'alice' },
      '#bob': { name: 'bob' },
      '#ba': { code: 'ba', who: 'dan' },
      '#bb': { code: 'bb', who: 'bob', holder: '#bob' },
      '#bc': { code: 'bc', who: 'carol', holder: '#alice' },
    });
  });
});
