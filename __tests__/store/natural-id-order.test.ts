import { CollectionState } from '../../src/store/embedded/collection-state.js';

/** CollectionState.naturalOrderIsIdOrder: true exactly while every document was created above the one before. */
type Step = ['put' | 'remove', string];

const CASES: Array<[string, Step[], boolean]> = [
  ['empty', [], true],
  ['ids created ascending', [['put', 'a'], ['put', 'b'], ['put', 'c']], true],
  ['an update keeps the place', [['put', 'a'], ['put', 'b'], ['put', 'a']], true],
  ['a smaller id created later', [['put', 'b'], ['put', 'a']], false],
  ['the last id created again after its removal (no id above the last one: counted as out of order)', [['put', 'a'], ['put', 'b'], ['remove', 'b'], ['put', 'b']], false],
  ['a removal alone', [['put', 'a'], ['put', 'b'], ['remove', 'a']], true],
  ['broken once, stays broken', [['put', 'b'], ['put', 'a'], ['remove', 'a'], ['put', 'c']], false],
];

describe('natural order as _id order', () => {
  it.each(CASES)('%s', (_name, steps, expected) => {
    const state = new CollectionState('Ordered');
    for (const [kind, id] of steps) {
      if (kind === 'put') state.put({ _id: id });
      else state.remove(id);
    }
    expect(state.naturalOrderIsIdOrder).toBe(expected);
  });

  it('a rolled-back removal puts the document back at a new place, out of order', () => {
    const state = new CollectionState('Ordered');
    for (const id of ['a', 'b', 'c']) state.put({ _id: id });
    state.remove('a');
    state.restore(new Map([['a', { _id: 'a' }]]));
    expect(state.all().map((document) => document._id)).toEqual(['b', 'c', 'a']);
    expect(state.naturalOrderIsIdOrder).toBe(false);
  });
});

/** CollectionState.newAscendingIds: true only when no stored or batch id can equal one of `ids`. */
const NEW_ID_CASES: Array<[string, string[], string[], boolean]> = [
  ['empty store, ascending batch', [], ['a', 'b'], true],
  ['empty store, a repeated id', [], ['a', 'a'], false],
  ['empty store, descending batch', [], ['b', 'a'], false],
  ['ids above the last created', ['a', 'b'], ['c', 'd'], true],
  ['the last created id again', ['a', 'b'], ['b'], false],
  ['an id below the last created (maybe stored)', ['a', 'c'], ['b'], false],
  ['an id that is stored', ['a', 'b'], ['a'], false],
  ['ascending from above, then a repeat', ['a'], ['b', 'c', 'c'], false],
  ['no ids', ['a'], [], true],
];

describe('ids known to be new without a lookup', () => {
  it.each(NEW_ID_CASES)('%s', (_name, stored, ids, expected) => {
    const state = new CollectionState('Ordered');
    for (const id of stored) state.put({ _id: id });
    expect(state.newAscendingIds(ids)).toBe(expected);
  });

  it('is never sure once ids were created out of order, even above the last one', () => {
    const state = new CollectionState('Ordered');
    for (const id of ['b', 'a']) state.put({ _id: id });
    expect(state.newAscendingIds(['c'])).toBe(false);
  });
});
