/**
 * `{ $group: { _id: "$field", ... } }` over a top-level field whose values are strings (a relation's
 * parent id, say): the rows are dealt out to their keys in one pass and each group is computed by
 * `groupAll`, so it gives exactly what mingo gives, without mingo evaluating an expression per row and
 * value (seconds for the per-parent aggregates of 100,000 children). A row without the field (or with
 * null) falls in the group `null`, as in MongoDB. Groups come in the order of their first row.
 *
 * Anything else (another `_id` expression, a key that is not a string, an accumulator `groupAll` leaves
 * to mingo) answers undefined, and the caller runs the stage with mingo.
 */
import { groupAll } from './group-all.js';

type Row = Record<string, unknown>;

const FIELD_REFERENCE = /^\$([A-Za-z_][A-Za-z0-9_]*)$/;
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

function groupedField(stage: Row): string | undefined {
  const spec = stage.$group;
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return undefined;
  const key = (spec as Row)._id;
  const field = typeof key === 'string' ? FIELD_REFERENCE.exec(key)?.[1] : undefined;
  return field === undefined || PROTOTYPE_NAMES.has(field) ? undefined : field;
}

export function groupByKey(rows: readonly Row[], stage: Row): Row[] | undefined {
  const field = groupedField(stage);
  if (field === undefined) return undefined;
  const byKey = new Map<string | null, Row[]>();
  for (const row of rows) {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) return undefined;
    const value = row[field] ?? null;
    if (value !== null && typeof value !== 'string') return undefined;
    const group = byKey.get(value);
    if (group) group.push(row);
    else byKey.set(value, [row]);
  }
  const accumulators = { $group: { ...(stage.$group as Row), _id: null } };
  const groups: Row[] = [];
  for (const [key, members] of byKey) {
    const [group] = groupAll(members, accumulators) ?? [];
    if (!group) return undefined;
    groups.push({ ...group, _id: key });
  }
  return groups;
}
