import type { ExecutionResult } from 'graphql';
import { LiveRegistry } from '../../src/live/registry.js';
import { liveSettings } from '../../src/live/settings.js';
import type { ChangeListener, Store } from '../../src/store/port.js';
import { until } from '../helpers/wait.js';

/** A store whose change feed the test drives; batches are handed over after debounceMs 0. */
function feedStore() {
  const listeners = new Set<ChangeListener>();
  const store = {
    watchChanges(listener: ChangeListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as Store;
  const write = async (...collections: string[]) => {
    listeners.forEach((listener) => listener({ collections }));
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { store, write, listeners };
}

/** A run the test finishes by hand, counting starts. */
function manualRun() {
  const state = { starts: 0, finish: (_result: ExecutionResult) => undefined as void };
  const run = () =>
    new Promise<ExecutionResult>((resolve) => {
      state.starts++;
      state.finish = resolve;
    });
  return { state, run };
}

const reads = { kind: 'collections', collections: new Set(['Task']) } as const;

describe('LiveRegistry', () => {
  it('shares one run among subscriptions with the same key and counts each against its connection', async () => {
    const { store } = feedStore();
    const registry = new LiveRegistry(store, liveSettings({ debounceMs: 0, maxPerConnection: 2 }));
    const { state, run } = manualRun();
    const owner = {};
    const first = registry.add({ owner, sharingKey: 'k', reads, run });
    const second = registry.add({ owner, sharingKey: 'k', reads, run });
    expect(registry.refusal(owner)?.extensions.code).toBe('TOO_MANY_SUBSCRIPTIONS');
    const results = Promise.all([first.next(), second.next()]);
    state.finish({ data: { n: 1 } });
    expect(await results).toEqual([{ done: false, value: { data: { n: 1 } } }, { done: false, value: { data: { n: 1 } } }]);
    expect(state.starts).toBe(1);
    expect([registry.size, registry.executions]).toEqual([2, 1]);
    await first.return();
    await second.return();
    expect([registry.size, registry.executions, registry.refusal(owner)]).toEqual([0, 0, undefined]);
  });

  it('holds a batch back while the last batch’s runs are under way (and as long again), then hands over the merged batch once', async () => {
    const { store, write, listeners } = feedStore();
    const registry = new LiveRegistry(store, liveSettings({ debounceMs: 0 }));
    const { state, run } = manualRun();
    const query = registry.add({ owner: {}, sharingKey: 'k', reads, run });
    const initial = query.next();
    state.finish({ data: { n: 0 } });
    await initial;
    await write('Task');
    expect(registry.stats).toEqual({ batches: 1, invalidations: 1, reruns: 0, delivered: 1, unchanged: 0 });
    const rerun = query.next();
    expect(state.starts).toBe(2);
    // Two more batches while the re-run is under way: held back, then handed over as one.
    await write('Task');
    await write('Note');
    expect(registry.stats.batches).toBe(1);
    state.finish({ data: { n: 1 } });
    expect(await rerun).toEqual({ done: false, value: { data: { n: 1 } } });
    await until(() => registry.stats.batches === 2);
    expect(registry.stats).toEqual({ batches: 2, invalidations: 2, reruns: 1, delivered: 2, unchanged: 0 });
    const third = query.next();
    expect(state.starts).toBe(3);
    state.finish({ data: { n: 2 } });
    expect(await third).toEqual({ done: false, value: { data: { n: 2 } } });
    registry.close();
    expect(listeners.size).toBe(0);
  });

  it('reports running counts, re-runs, results delivered or unchanged, and refusals to its listener', async () => {
    const { store, write } = feedStore();
    const events: string[] = [];
    const registry = new LiveRegistry(store, liveSettings({ debounceMs: 0, maxPerConnection: 2 }), {
      runningChanged: (count) => events.push(`running ${count}`),
      rerun: () => events.push('rerun'),
      resultDelivered: () => events.push('delivered'),
      resultUnchanged: () => events.push('unchanged'),
      refused: (code) => events.push(`refused ${code}`),
    });
    const { state, run } = manualRun();
    const owner = {};
    const first = registry.add({ owner, sharingKey: 'k', reads, run });
    const second = registry.add({ owner, sharingKey: 'k', reads, run });
    expect(() => registry.add({ owner, sharingKey: 'k', reads, run })).toThrow('this connection already runs 2 subscriptions');
    const initial = Promise.all([first.next(), second.next()]);
    state.finish({ data: { n: 0 } });
    await initial;
    await write('Task');
    const unchanged = first.next();
    state.finish({ data: { n: 0 } });
    await write('Task');
    // The equal result was skipped; the run after the second batch brings a new one.
    await until(() => state.starts === 3);
    state.finish({ data: { n: 1 } });
    expect(await unchanged).toEqual({ done: false, value: { data: { n: 1 } } });
    await first.return();
    await second.return();
    registry.close();
    expect(events).toEqual([
      'running 1', 'running 2', 'refused TOO_MANY_SUBSCRIPTIONS', 'delivered', 'delivered',
      'rerun', 'unchanged', 'rerun', 'delivered', 'running 1', 'running 0',
    ]);
  });
});
