import { ChangeBatcher } from '../../src/live/change-batcher.js';
import type { ChangeListener, Store } from '../../src/store/port.js';

/** A store whose change feed the test drives. */
function feedStore() {
  const listeners = new Set<ChangeListener>();
  const store = {
    watchChanges(listener: ChangeListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as Store;
  const write = (...collections: string[]) => listeners.forEach((listener) => listener({ collections }));
  return { store, write, listeners };
}

describe('ChangeBatcher', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('hands over every collection written within debounceMs of the first change, once each, in one batch', () => {
    const { store, write } = feedStore();
    const batches: string[][] = [];
    const batcher = new ChangeBatcher(store, 20, (collections) => batches.push([...collections].sort()));
    batcher.start();
    write('Task');
    jest.advanceTimersByTime(10);
    write('User', 'Task');
    expect(batches).toEqual([]);
    jest.advanceTimersByTime(10);
    expect(batches).toEqual([['Task', 'User']]);
    write('Note');
    jest.advanceTimersByTime(20);
    expect(batches).toEqual([['Task', 'User'], ['Note']]);
  });

  it('under a steady stream of writes, still hands over a batch every debounceMs', () => {
    const { store, write } = feedStore();
    let batches = 0;
    const batcher = new ChangeBatcher(store, 20, () => batches++);
    batcher.start();
    for (let ms = 0; ms < 100; ms += 5) {
      write('Task');
      jest.advanceTimersByTime(5);
    }
    expect(batches).toBe(5);
  });

  it('watches only while started, and drops what was pending when stopped', () => {
    const { store, write, listeners } = feedStore();
    const onBatch = jest.fn();
    const batcher = new ChangeBatcher(store, 20, onBatch);
    batcher.start();
    batcher.start();
    expect(listeners.size).toBe(1);
    write('Task');
    batcher.stop();
    jest.advanceTimersByTime(50);
    expect(onBatch).not.toHaveBeenCalled();
    expect(listeners.size).toBe(0);
    expect(batcher.running).toBe(false);
  });
});
