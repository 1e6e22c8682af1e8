import type { SchemaModel, TypeModel } from '../sdl/model.js';
import type { Pipeline } from '../store/port.js';
import { QueryArgumentError } from './errors.js';
import { planStages, type FilterPlan } from './filter.js';
import { isOrderable } from './order.js';
import { storedPath, typeOf } from './schema-facts.js';
import { compareValues } from './sort-compare.js';

/**
 * `TAggregateResult { count, <f>Min, <f>Max, <f>Sum, <f>Avg }`: Min/Max for single String, Int, Int64,
 * Float and DateTime fields; Sum/Avg for the numeric ones. Only the requested results are computed.
 */

type Operation = 'count' | 'min' | 'max' | 'sum' | 'avg';

/** One computed value: the output name and what it aggregates. */
export interface AggregateOutput {
  name: string;
  operation: Operation;
  /** Stored path of the aggregated field (not for count). */
  path?: string;
}

const SUFFIXES: Record<string, Exclude<Operation, 'count'>> = { Min: 'min', Max: 'max', Sum: 'sum', Avg: 'avg' };

/** Sum of no values is null, not 0; a hidden average tells whether any value was there. */
const presenceName = (fieldName: string): string => `__${fieldName}Avg`;

function outputFor(model: SchemaModel, type: TypeModel, name: string): AggregateOutput[] {
  if (name === 'count') return [{ name, operation: 'count' }];
  const operation = SUFFIXES[name.slice(-3)];
  const field = operation ? type.fieldsByName.get(name.slice(0, -3)) : undefined;
  const scalar = field?.of.kind === 'scalar' ? field.of.scalar : undefined;
  const numeric = scalar === 'Int' || scalar === 'Int64' || scalar === 'Float';
  if (!field || !isOrderable(model, type, field) || ((operation === 'sum' || operation === 'avg') && !numeric)) {
    throw new QueryArgumentError(`${type.name}AggregateResult has no field "${name}"`);
  }
  const path = storedPath(field);
  const output: AggregateOutput = { name, operation, path };
  return operation === 'sum' ? [output, { name: presenceName(field.name), operation: 'avg', path }] : [output];
}

/** What to compute for the requested result fields (`__typename` and other `__` names are ignored). */
export function aggregateOutputs(model: SchemaModel, typeName: string, requested: readonly string[]): AggregateOutput[] {
  const type = typeOf(model, typeName);
  const outputs = new Map<string, AggregateOutput>();
  for (const name of requested) {
    if (name.startsWith('__')) continue;
    for (const output of outputFor(model, type, name)) outputs.set(output.name, output);
  }
  return [...outputs.values()];
}

/** `$group` accumulators over documents. */
export function groupAccumulators(outputs: readonly AggregateOutput[]): Record<string, unknown> {
  const accumulators: Record<string, unknown> = {};
  for (const { name, operation, path } of outputs) {
    accumulators[name] = operation === 'count' ? { $sum: 1 } : { [`$${operation}`]: `$${path}` };
  }
  return accumulators;
}

/**
 * `aggregateT(filter)` as one pipeline on the type's collection: the filter's stages, then one `$group`
 * with `_id: null`. Run it with `collection.aggregate` and pass the rows to `readAggregateResult`.
 */
export function compileAggregate(model: SchemaModel, typeName: string, plan: FilterPlan, requested: readonly string[]): Pipeline {
  const outputs = aggregateOutputs(model, typeName, requested);
  return [...planStages(plan), { $group: { _id: null, ...groupAccumulators(outputs) } }];
}

/** One aggregate row → the GraphQL result; no row (nothing matched) gives count 0 and nulls. */
export function aggregateResultOf(row: Record<string, unknown> | undefined, requested: readonly string[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const name of requested) {
    if (name.startsWith('__')) continue;
    if (name === 'count') {
      result.count = typeof row?.count === 'number' ? row.count : 0;
    } else if (name.endsWith('Sum')) {
      const present = row?.[presenceName(name.slice(0, -3))];
      result[name] = present === null || present === undefined ? null : (row?.[name] ?? null);
    } else {
      result[name] = row?.[name] ?? null;
    }
  }
  return result;
}

/** The output of `compileAggregate` → the GraphQL `TAggregateResult`. */
export function readAggregateResult(rows: readonly Record<string, unknown>[], requested: readonly string[]): Record<string, unknown> {
  return aggregateResultOf(rows[0], requested);
}

/** The fields `outputs` read, as an inclusion projection (`_id` comes anyway). */
export function aggregateProjection(outputs: readonly AggregateOutput[]): Record<string, 1> {
  const projection: Record<string, 1> = {};
  for (const { path } of outputs) if (path !== undefined) projection[path] = 1;
  return projection;
}

/**
 * What `{ $group: groupAccumulators(outputs) }` gives over `documents`, computed in one pass per output
 * over the documents as they are (no copies): `$sum`/`$avg` of the numbers in document order, `$min`/`$max`
 * of the values present in MongoDB's order. No documents: no row, as `$group` gives none.
 */
export function aggregateRowOf(outputs: readonly AggregateOutput[], documents: readonly Record<string, unknown>[]): Record<string, unknown> | undefined {
  if (documents.length === 0) return undefined;
  const row: Record<string, unknown> = {};
  for (const { name, operation, path } of outputs) {
    if (operation === 'count') {
      row[name] = documents.length;
      continue;
    }
    if (operation === 'sum' || operation === 'avg') {
      let total = 0;
      let numbers = 0;
      for (const document of documents) {
        const value = document[path!];
        if (typeof value === 'number') {
          total += value;
          numbers++;
        }
      }
      row[name] = operation === 'sum' ? total : numbers === 0 ? null : total / numbers;
      continue;
    }
    let best: unknown = null;
    for (const document of documents) {
      const value = document[path!];
      if (value === null || value === undefined) continue;
      // Like `$group`: the first of equal smallest values, the last of equal largest ones.
      const order = best === null ? (operation === 'min' ? -1 : 1) : compareValues(value, best);
      if (operation === 'min' ? order < 0 : order >= 0) best = value;
    }
    row[name] = best;
  }
  return row;
}
