/**
 * Steps of a mutation that usually finish at once and only sometimes wait for the store: a Ref whose
 * object was read ahead resolves without a promise, one that was not needs a read. These helpers run
 * such steps one after another (a transaction takes one store operation at a time, and a later step may
 * read what an earlier one wrote) and make a promise only once a step returns one, so an add of 100
 * objects whose refs were all read ahead makes none per object.
 */

export type MaybePromise<T> = T | Promise<T>;

/** `step` of each item in order, each started once the one before has finished: an array, or a promise of one once a step waits. */
export function mapInOrder<T, R>(items: readonly T[], step: (item: T, index: number) => MaybePromise<R>): MaybePromise<R[]> {
  const results: R[] = [];
  for (let index = 0; index < items.length; index++) {
    const result = step(items[index]!, index);
    if (result instanceof Promise) return finishInOrder(items, step, results, index, result);
    results.push(result);
  }
  return results;
}

async function finishInOrder<T, R>(items: readonly T[], step: (item: T, index: number) => MaybePromise<R>, results: R[], waiting: number, pending: Promise<R>): Promise<R[]> {
  results.push(await pending);
  for (let index = waiting + 1; index < items.length; index++) results.push(await step(items[index]!, index));
  return results;
}

/** `next` of the value, at once when it is there, else once the promise has it. */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
