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
