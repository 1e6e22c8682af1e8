import { CollectionIndex } from '../../src/store/embedded/collection-index.js';

/**
 * A key's postings get a bitset beside them only when many documents hold the key and they are not too
 * sparse among all positions (a bitset takes one bit per position of the whole collection): 1,024 holders
 * at least, and at least one position in 256.
 */

function indexWith(holdersByKey: Record<string, number[]>): CollectionIndex {
  const index = new CollectionIndex({ name: 'ag_kind', keys: { kind: 1 } }, (position) => `d${position}`);
  const byPosition = new Map<number, string>();
  for (const [kind, positions] of Object.entries(holdersByKey)) for (const position of positions) byPosition.set(position, kind);
  for (const position of [...byPosition.keys()].sort((a, b) => a - b)) index.add({ _id: `d${position}`, kind: byPosition.get(position)! }, position);
  return index;
}

const every = (count: number, step: number, from = 0) => Array.from({ length: count }, (_, i) => from + i * step);

it.each<{ name: string; positions: number[]; bitset: boolean }>([
  { name: 'held by 1,023 adjacent documents', positions: every(1023, 1), bitset: false },
  { name: 'held by 1,024 adjacent documents', positions: every(1024, 1), bitset: true },
  { name: 'held by 1,024 documents, one position in 255', positions: every(1024, 255), bitset: true },
  { name: 'held by 1,024 documents, one position in 300', positions: every(1024, 300), bitset: false },
  { name: 'held by 4,000 documents spread over 1,200,000 positions', positions: every(4000, 300), bitset: false },
  { name: 'held by 5,000 documents over 1,200,000 positions', positions: every(5000, 240), bitset: true },
])('a key $name: bitset $bitset, and its postings and count exact either way', ({ positions, bitset }) => {
  const index = indexWith({ probe: positions, other: every(50, 7, positions[positions.length - 1]! + 1) });
  expect(index.countWithKey('s:other')).toBe(50);
  expect(index.bitsetOf('s:probe') !== undefined).toBe(bitset);
  expect(index.positionsWithKey('s:probe')).toEqual(positions);
  expect(index.countWithKey('s:probe')).toBe(positions.length);
  const bits = index.bitsetOf('s:probe');
  if (bits) expect(positions.every((position) => bits.has(position)) && !bits.has(positions[positions.length - 1]! + 1)).toBe(true);
});

it('gives a key its bitset once it grows dense enough, and keeps it exact as holders are added', () => {
  const index = indexWith({ probe: every(1100, 400) });
  expect(index.bitsetOf('s:probe')).toBeUndefined();
  // Holders added between the existing ones: 3,000 more at the low positions make it dense.
  const added = every(3000, 2, 1);
  for (const position of added) index.add({ _id: `d${position}`, kind: 'probe' }, position);
  const bits = index.bitsetOf('s:probe');
  expect(bits).toBeDefined();
  expect([...every(1100, 400), ...added].every((position) => bits!.has(position))).toBe(true);
  expect(index.countWithKey('s:probe')).toBe(4100);
});
