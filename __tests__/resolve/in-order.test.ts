import { andThen, mapInOrder, type MaybePromise } from '../../src/resolve/mutations/in-order.js';

/**
 * mapInOrder and andThen: results in order, no promise while every step answers at once, and each step
 * started only once the one before has finished (a step may read what the one before wrote).
 */
type Kind = 'now' | 'later';

/** Steps that answer `item * 10`, at once or after a turn of the event loop, and log when they start and end. */
function steps(kinds: readonly Kind[]) {
  const log: string[] = [];
  const step = (item: number, index: number): MaybePromise<number> => {
    log.push(`start ${index}`);
    if (kinds[index] === 'now') {
      log.push(`end ${index}`);
      return item * 10;
    }
    return new Promise((resolve) => setImmediate(() => {
      log.push(`end ${index}`);
      resolve(item * 10);
    }));
  };
  return { log, step };
}

const inOrder = (count: number) => Array.from({ length: count }, (_, i) => [`start ${i}`, `end ${i}`]).flat();

describe('mapInOrder', () => {
  test.each<[string, Kind[], boolean]>([
    ['no items', [], false],
    ['every step at once', ['now', 'now', 'now'], false],
    ['the first step waits', ['later', 'now', 'now'], true],
    ['a middle step waits', ['now', 'later', 'now'], true],
    ['the last step waits', ['now', 'now', 'later'], true],
    ['every step waits', ['later', 'later', 'later'], true],
  ])('%s', async (_case, kinds, promised) => {
    const { log, step } = steps(kinds);
    const items = kinds.map((_kind, i) => i + 1);
    const result = mapInOrder(items, step);
    expect(result instanceof Promise).toBe(promised);
    expect(await result).toEqual(items.map((item) => item * 10));
    expect(log).toEqual(inOrder(kinds.length));
  });

  test.each<[string, Kind[]]>([
    ['a step that throws at once stops the others, and the error is thrown', ['now', 'now', 'now']],
    ['a step that throws after one waited rejects, and stops the others', ['later', 'now', 'now']],
  ])('%s', async (_case, kinds) => {
    const { log, step } = steps(kinds);
    const failing = (item: number, index: number): MaybePromise<number> => {
      if (index === 1) throw new Error(`step ${index} failed`);
      return step(item, index);
    };
    const run = () => mapInOrder([1, 2, 3], failing);
    if (kinds[0] === 'now') expect(run).toThrow('step 1 failed');
    else await expect(run()).rejects.toThrow('step 1 failed');
    expect(log).toEqual(['start 0', 'end 0']);
  });

  test('a rejected step rejects the whole, and the steps after it never start', async () => {
    const started: number[] = [];
    const result = mapInOrder([0, 1, 2], (item) => {
      started.push(item);
      return item === 1 ? Promise.reject(new Error('read failed')) : item;
    });
    await expect(result).rejects.toThrow('read failed');
    expect(started).toEqual([0, 1]);
  });
});

describe('andThen', () => {
  test('a value: next runs at once and its answer comes back as it is', () => {
    expect(andThen(2, (value) => value + 1)).toBe(3);
  });

  test('a promise: next runs once it has settled, and the answer is a promise', async () => {
    const result = andThen(Promise.resolve(2), (value) => value + 1);
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe(3);
  });

  test('next may answer with a promise either way', async () => {
    expect(await andThen(2, (value) => Promise.resolve(value * 2))).toBe(4);
    expect(await andThen(Promise.resolve(2), (value) => Promise.resolve(value * 2))).toBe(4);
  });
});
