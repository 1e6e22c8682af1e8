import { CollectionState } from '../../src/store/embedded/collection-state.js';
import type { StoredDocument } from '../../src/store/port.js';

/**
 * CollectionState.freeze: what it gives is the state at the freeze, however writes interleave with the
 * reading. The oracle is a copy of every document taken at the freeze (what the compactor used to take).
 */

/** A small deterministic generator, so a failing sequence can be replayed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

type Step = 'read' | 'replace' | 'remove' | 'create' | 'recreate' | 'restore';
const STEPS: Step[] = ['read', 'read', 'replace', 'remove', 'create', 'recreate', 'restore'];

function filledState(size: number): CollectionState {
  const state = new CollectionState('Frozen');
  for (let i = 0; i < size; i++) state.put({ _id: `d${String(i).padStart(4, '0')}`, v: 0 });
  return state;
}

describe('frozen documents', () => {
  it.each(Array.from({ length: 40 }, (_, seed) => [seed]))('give the state at the freeze under interleaved writes (seed %i)', (seed) => {
    const random = generator(seed);
    const state = filledState(30);
    // Some history before the freeze: holes and replaced versions.
    state.remove('d0003');
    state.put({ _id: 'd0005', v: 1 });
    const expected = [...state.all()];
    const frozen = state.freeze();
    expect(frozen.count).toBe(expected.length);
    const iterator = frozen[Symbol.iterator]();
    const got: StoredDocument[] = [];
    const removed = new Map<string, StoredDocument>();
    let created = 0;
    let done = false;
    for (let step = 0; step < 200 && !done; step++) {
      const kind = STEPS[Math.floor(random() * STEPS.length)]!;
      const ids = state.all().map((document) => document._id);
      const anyId = ids[Math.floor(random() * ids.length)];
      if (kind === 'read') {
        const next = iterator.next();
        if (next.done) done = true;
        else got.push(next.value);
      } else if (kind === 'replace' && anyId !== undefined) {
        state.put({ _id: anyId, v: step });
      } else if (kind === 'remove' && anyId !== undefined) {
        removed.set(anyId, state.get(anyId)!);
        state.remove(anyId);
      } else if (kind === 'create') {
        state.put({ _id: `n${created++}`, v: step });
      } else if (kind === 'recreate') {
        const [id] = removed.keys();
        if (id !== undefined) {
          removed.delete(id);
          state.put({ _id: id, v: step });
        }
      } else if (kind === 'restore' && anyId !== undefined) {
        // A rollback: one document back to a version, another created by the undone unit removed.
        state.restore(new Map<string, StoredDocument | undefined>([[anyId, { _id: anyId, v: -step }]]));
      }
    }
    for (let next = iterator.next(); !next.done; next = iterator.next()) got.push(next.value);
    expect(got).toEqual(expected);
    // The very objects: nothing was copied.
    got.forEach((document, i) => expect(document).toBe(expected[i]));
  });

  it('reads once, and not after a release', () => {
    const state = filledState(3);
    const frozen = state.freeze();
    expect([...frozen].map((document) => document._id)).toEqual(['d0000', 'd0001', 'd0002']);
    expect(() => [...frozen]).toThrow('frozen documents can be read only once');
    const released = state.freeze();
    released.release();
    expect(() => [...released]).toThrow('released before they were read');
  });

  it('two freezes at different moments each keep their own moment', () => {
    const state = filledState(3);
    const first = state.freeze();
    state.put({ _id: 'd0001', v: 1 });
    const second = state.freeze();
    state.put({ _id: 'd0001', v: 2 });
    state.remove('d0000');
    expect([...second].map((document) => [document._id, document.v])).toEqual([['d0000', 0], ['d0001', 1], ['d0002', 0]]);
    expect([...first].map((document) => [document._id, document.v])).toEqual([['d0000', 0], ['d0001', 0], ['d0002', 0]]);
  });

  it('fails instead of giving fewer documents than it announced', () => {
    const state = filledState(2);
    const frozen = state.freeze();
    // Not a path the store takes: a document changed in place, as if it bypassed the slot (so nothing is kept).
    (state as unknown as { byPosition: Array<unknown> }).byPosition[1] = undefined;
    expect(() => [...frozen]).toThrow('frozen documents: read 1, expected 2');
  });
});

describe('what a freeze holds', () => {
  it('holds only the versions of positions it froze and has not read yet, and nothing once read or released', () => {
    const state = filledState(10);
    const frozen = state.freeze();
    expect(state.openFreezes).toBe(1);
    const iterator = frozen[Symbol.iterator]();
    expect(iterator.next().value).toEqual({ _id: 'd0000', v: 0 });
    expect(iterator.next().value).toEqual({ _id: 'd0001', v: 0 });
    state.put({ _id: 'd0000', v: 1 }); // read already
    state.put({ _id: 'n0000', v: 1 }); // created after the freeze
    state.put({ _id: 'n0000', v: 2 });
    expect(frozen.heldVersions).toBe(0);
    state.put({ _id: 'd0005', v: 1 }); // not read yet: its version at the freeze is kept
    state.put({ _id: 'd0005', v: 2 }); // kept once
    state.remove('d0006');
    expect(frozen.heldVersions).toBe(2);
    expect(iterator.next().value).toEqual({ _id: 'd0002', v: 0 });
    expect([...{ [Symbol.iterator]: () => iterator }].map((document) => document._id)).toEqual(['d0003', 'd0004', 'd0005', 'd0006', 'd0007', 'd0008', 'd0009']);
    expect(frozen.heldVersions).toBe(0);
    expect(state.openFreezes).toBe(0);
    state.put({ _id: 'd0009', v: 1 });
    expect(frozen.heldVersions).toBe(0);
  });

  it('a freeze released before it is read holds nothing and is released once', () => {
    const state = filledState(5);
    const first = state.freeze();
    const second = state.freeze();
    expect(state.openFreezes).toBe(2);
    first.release();
    first.release();
    expect(state.openFreezes).toBe(1);
    state.put({ _id: 'd0001', v: 1 });
    expect(first.heldVersions).toBe(0);
    expect(second.heldVersions).toBe(1);
    expect(() => [...first]).toThrow('frozen documents were released before they were read');
    expect([...second].map((document) => document.v)).toEqual([0, 0, 0, 0, 0]);
    expect(state.openFreezes).toBe(0);
  });

  it('a reader that stops early releases the freeze', () => {
    const state = filledState(5);
    const frozen = state.freeze();
    for (const document of frozen) if (document._id === 'd0001') break;
    expect(state.openFreezes).toBe(0);
    state.put({ _id: 'd0003', v: 1 });
    expect(frozen.heldVersions).toBe(0);
  });
});
