/**
 * `{ $group: { _id: null, ... } }` over top-level fields, computed in one pass over the rows instead of by
 * mingo, whose accumulators evaluate an expression per row and value and sort all values for `$min` and
 * `$max` (about a second for the aggregates of 50,000 documents). It gives exactly mingo's results:
 *
 * - `{ $sum: <number> }`: rows × number; `{ $sum: "$f" }` / `{ $avg: "$f" }`: the number values of `f`
 *   added in row order (others ignored); the average of none is null.
 * - `{ $min: "$f" }` / `{ $max: "$f" }`: only when every value of `f` that is not null or missing is a
 *   number, or every one is a string (where mingo compares with `<` too): the first smallest, the last
 *   largest, as mingo's stable sort picks them; null when there is none. Other values: not handled here.
 * - no rows: no group.
 *
 * Anything else (another `_id`, other accumulators or expressions, a dotted path, rows that are not
 * objects) answers undefined, and the caller runs the stage with mingo.
 */
/** mingo's isNumber (a number that is not NaN), inlined: this runs once per row and field. */
const isNumber = (value: unknown): value is number => typeof value === 'number' && !Number.isNaN(value);

type Row = Record<string, unknown>;

export type Accumulator =
  | { kind: 'count'; times: number }
  | { kind: 'sum' | 'avg' | 'min' | 'max'; field: string };

/** A top-level field reference mingo resolves as a plain property (no dots, variables or prototype names). */
const FIELD_REFERENCE = /^\$([A-Za-z_][A-Za-z0-9_]*)$/;
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

function accumulatorOf(spec: unknown): Accumulator | undefined {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return undefined;
  const entries = Object.entries(spec);
  if (entries.length !== 1) return undefined;
  const [operator, argument] = entries[0]!;
  if (operator === '$sum' && isNumber(argument)) return { kind: 'count', times: argument };
  if (operator !== '$sum' && operator !== '$avg' && operator !== '$min' && operator !== '$max') return undefined;
  const field = typeof argument === 'string' ? FIELD_REFERENCE.exec(argument)?.[1] : undefined;
  if (field === undefined || PROTOTYPE_NAMES.has(field)) return undefined;
  return { kind: operator.slice(1) as 'sum' | 'avg' | 'min' | 'max', field };
}

/** The accumulators of a `$group` stage with `_id: null`, or undefined when one is not handled here. */
export function groupAllSpec(stage: Row): Map<string, Accumulator> | undefined {
  const spec = stage.$group;
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return undefined;
  const entries = Object.entries(spec);
  if (!entries.some(([name, value]) => name === '_id' && value === null)) return undefined;
  const accumulators = new Map<string, Accumulator>();
  for (const [name, value] of entries) {
    if (name === '_id') continue;
    const accumulator = accumulatorOf(value);
    if (!accumulator) return undefined;
    accumulators.set(name, accumulator);
  }
  return accumulators;
}

const isPlainRow = (row: unknown): boolean => row !== null && typeof row === 'object' && !Array.isArray(row);

/** The number values of `field`, added in row order, and how many there were; one pass, no copies. */
function sumOf(rows: readonly Row[], field: string): { total: number; count: number } {
  let total = 0;
  let count = 0;
  for (const row of rows) {
    const value = row[field];
    if (isNumber(value)) {
      total += value;
      count++;
    }
  }
  return { total, count };
}

/** `$min` / `$max` when the values not null are all numbers or all strings; undefined otherwise. */
function extremeOf(rows: readonly Row[], field: string, kind: 'min' | 'max'): { value: unknown } | undefined {
  let best: number | string | undefined;
  let type: string | undefined;
  for (const row of rows) {
    // As mingo's `$push` sees it: missing as null.
    const value = row[field] ?? null;
    if (value === null) continue;
    if (!isNumber(value) && typeof value !== 'string') return undefined;
    if (type === undefined) type = typeof value;
    else if (typeof value !== type) return undefined;
    if (best === undefined) best = value;
    else if (kind === 'min' ? value < best : !(value < best)) best = value;
  }
  return { value: best ?? null };
}

/**
 * The group of `count` rows when every accumulator of `stage` only counts (`{ $sum: <number> }`), so that
 * the rows need not be read, or even built; undefined otherwise.
 */
export function countGroup(count: number, stage: Row): Row[] | undefined {
  const accumulators = groupAllSpec(stage);
  if (!accumulators) return undefined;
  const group: Row = { _id: null };
  for (const [name, accumulator] of accumulators) {
    if (accumulator.kind !== 'count') return undefined;
    group[name] = count * accumulator.times;
  }
  return count === 0 ? [] : [group];
}

/** The group's rows (none or one), or undefined when `stage` is not a `$group` handled here. */
export function groupAll(rows: readonly Row[], stage: Row): Row[] | undefined {
  const accumulators = groupAllSpec(stage);
  if (!accumulators) return undefined;
  if (rows.length === 0) return [];
  if (!rows.every(isPlainRow)) return undefined;
  const group: Row = { _id: null };
  for (const [name, accumulator] of accumulators) {
    if (accumulator.kind === 'count') {
      group[name] = rows.length * accumulator.times;
      continue;
    }
    if (accumulator.kind === 'sum' || accumulator.kind === 'avg') {
      const { total, count } = sumOf(rows, accumulator.field);
      group[name] = accumulator.kind === 'sum' ? total : count === 0 ? null : total / count;
      continue;
    }
    const extreme = extremeOf(rows, accumulator.field, accumulator.kind);
    if (!extreme) return undefined;
    group[name] = extreme.value;
  }
  return [group];
}
