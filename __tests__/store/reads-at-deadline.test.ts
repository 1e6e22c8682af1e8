import { rm } from 'node:fs/promises';
import { RequestBudget } from '../../src/limits/budget.js';
import { observedStore } from '../../src/observe/observed-store.js';
import { budgetedStore } from '../../src/resolve/budgeted-store.js';
import { countRoundTrips } from '../../src/store/counting.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Store } from '../../src/store/port.js';
import { storedCollectionsStore } from '../../src/store/stored-collections.js';
import { withCollections } from '../../src/store/with-collections.js';
import { makeTempDir } from '../helpers/backend.js';

/**
 * `endsReadsAtDeadline`: the embedded store ends its reads at their deadline by itself, so the request
 * budget does not race them against a timer. Decorators that hand reads straight on keep the promise;
 * a decorator that may delay reads (withCollections by default) must drop it.
 */
let folder: string;
let embedded: Store;

beforeAll(async () => {
  folder = await makeTempDir();
  embedded = await openEmbeddedStore(folder);
});
afterAll(async () => {
  await embedded.close();
  await rm(folder, { recursive: true, force: true });
});

describe('endsReadsAtDeadline through the store decorators', () => {
  const budget = new RequestBudget({ timeoutMs: 1000, maxObjects: 10 });
  const cases: Array<[decorator: string, decorate: (store: Store) => Store, kept: boolean]> = [
    ['the embedded store itself', (store) => store, true],
    ['counted round trips', (store) => countRoundTrips(store).store, true],
    ['stored collection names', (store) => storedCollectionsStore(store, new Map([['Author', 'Writer']])), true],
    ['observed (timed and traced)', (store) => observedStore(store, undefined, undefined), true],
    ['budgeted', (store) => budgetedStore(store, budget), true],
    ['all of them, as a request sees the store', (store) => budgetedStore(observedStore(storedCollectionsStore(countRoundTrips(store).store, new Map([['A', 'B']])), undefined, undefined), budget), true],
    ['collections wrapped by a decorator that does not say it hands reads on', (store) => withCollections(store, (name) => store.collection(name)), false],
    ['a budgeted store over such a decorator', (store) => budgetedStore(withCollections(store, (name) => store.collection(name)), budget), false],
  ];
  it.each(cases)('%s', (_decorator, decorate, kept) => {
    expect(decorate(embedded).endsReadsAtDeadline === true).toBe(kept);
  });
});
