/**
 * Ascending arrays of natural-order positions (index postings): insertion, removal, intersection and
 * union, so that index answers combine without hashing ids and come out in natural order.
 */

/** The first index in [low, high) of `positions` whose value is at least `target`, or `high`. */
function lowerBound(positions: readonly number[], target: number, low = 0, high = positions.length): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (positions[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether ascending `positions` hold `position` (a binary search). */
export function includesSorted(positions: readonly number[], position: number): boolean {
  return positions[lowerBound(positions, position)] === position;
}

/** Inserts `position` unless present; whether it was inserted. */
export function insertSorted(positions: number[], position: number): boolean {
  // New documents take the next position: appending is the common case, and splice costs more than push.
  if (positions.length === 0 || positions[positions.length - 1]! < position) {
    positions.push(position);
    return true;
  }
  const at = lowerBound(positions, position);
  if (positions[at] === position) return false;
  positions.splice(at, 0, position);
  return true;
}

/** Removes `position` if present; whether it was there. */
export function removeSorted(positions: number[], position: number): boolean {
  const at = lowerBound(positions, position);
  if (positions[at] !== position) return false;
  positions.splice(at, 1);
  return true;
}

/**
 * The positions in every one of `lists`, ascending. Each member of the shortest list is searched for in
 * the others from where the previous search ended (galloping), so a short list against a long one costs
 * about short × log(long), and lists of similar length cost a merge.
 */
export function intersectAll(lists: readonly (readonly number[])[]): readonly number[] {
  if (lists.length === 1) return lists[0]!;
  const [shortest, ...others] = [...lists].sort((a, b) => a.length - b.length);
  const cursors = others.map(() => 0);
  const found: number[] = [];
  candidates: for (const position of shortest!) {
    for (let i = 0; i < others.length; i++) {
      const other = others[i]!;
      const at = gallop(other, position, cursors[i]!);
      cursors[i] = at;
      if (at >= other.length) break candidates;
      if (other[at] !== position) continue candidates;
    }
    found.push(position);
  }
  return found;
}

/** Like lowerBound from `start`, probing 1, 2, 4, ... ahead first so a nearby target is found quickly. */
function gallop(positions: readonly number[], target: number, start: number): number {
  if (start >= positions.length || positions[start]! >= target) return start;
  let below = start;
  let step = 1;
  let probe = start + 1;
  while (probe < positions.length && positions[probe]! < target) {
    below = probe;
    step *= 2;
    probe = below + step;
  }
  return lowerBound(positions, target, below + 1, Math.min(probe, positions.length));
}

/** The positions in any of `lists`, ascending and without repeats. */
export function unionAll(lists: readonly (readonly number[])[]): readonly number[] {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return [];
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  const all: number[] = [];
  for (const list of nonEmpty) for (const position of list) all.push(position);
  return sortedUnique(all);
}

/** `positions` ascending, without repeats (a typed-array sort: numeric, and much faster than Array#sort). */
export function sortedUnique(positions: readonly number[]): number[] {
  const sorted = Float64Array.from(positions).sort();
  const unique: number[] = [];
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) unique.push(sorted[i]!);
  return unique;
}
