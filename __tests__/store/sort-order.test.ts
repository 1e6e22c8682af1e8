import { sortDocuments } from '../../src/store/embedded/sort-order.js';
import type { SortSpec, StoredDocument } from '../../src/store/port.js';

/**
 * A top-k sort (sortDocuments with `keep`) gives exactly the first `keep` documents of the full sort, ties
 * in natural order, over values of mixed types, arrays, missing fields and many equal keys.
 */
const VALUES: unknown[] = [1, 2, 2, 1.5, -3, 'a', 'b', '', null, true, false, [1, 5], [0, 9], [], ['a', 1], { x: 1 }, undefined];

function documents(): StoredDocument[] {
  let seed = 7;
  const pick = (): unknown => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return VALUES[seed % VALUES.length];
  };
  return Array.from({ length: 400 }, (_, i) => {
    const document: StoredDocument = { _id: `d${String((i * 131) % 400).padStart(3, '0')}`, group: i % 3 };
    const f = pick();
    const g = pick();
    if (f !== undefined) document.f = f;
    if (g !== undefined) document.g = g;
    return document;
  });
}

const SORTS: SortSpec[] = [
  { f: 1 }, { f: -1 }, { f: 1, _id: 1 }, { f: -1, _id: 1 }, { group: 1, f: -1 }, { group: -1, g: 1, _id: -1 }, { g: -1, f: 1 },
];

describe('sortDocuments with a page size', () => {
  const all = documents();
  const cases = SORTS.flatMap((sort) => [1, 3, 20, 49].map((keep) => [JSON.stringify(sort), sort, keep] as const));
  it.each(cases)('%s, first %d: the first documents of the full sort', (_, sort, keep) => {
    const ids = (list: StoredDocument[]): unknown[] => list.map((document) => document._id);
    expect(ids(sortDocuments(all, sort, keep))).toEqual(ids(sortDocuments(all, sort)).slice(0, keep));
  });
});
