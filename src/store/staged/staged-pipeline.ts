/**
 * Runs an aggregation pipeline over documents read through a `DocumentReader` (the staged store's view
 * of a collection: the store's documents with a mutation's pending writes laid over them), so an `@auth`
 * rule can be decided on documents that are not written yet. A leading `$match` and every `$lookup` are
 * turned into reads that fetch only what they join: `localField`/`foreignField` (with or without a
 * `pipeline`) and the `let` form whose first `$match` compares a variable with a field fetch the foreign
 * documents whose key occurs in the input; any other `$lookup` reads the whole foreign collection. The
 * other stages run in memory with mingo, as the embedded store runs them.
 */
import { aggregate } from 'mingo';
import type { Options } from 'mingo/types';
import { valuesAtPath, MISSING } from '../embedded/index-keys.js';
import { cloneJson, isPlainObject } from '../embedded/json-values.js';
import { withLinearRegex } from '../embedded/linear-regex.js';
import type { Filter, Pipeline } from '../port.js';

type Row = Record<string, unknown>;

/** The documents of `collection` that `filter` selects, as the caller's transaction sees them. */
export type DocumentReader = (collection: string, filter: Filter) => Promise<Row[]>;

export async function runStagedPipeline(read: DocumentReader, collection: string, pipeline: Pipeline): Promise<Row[]> {
  const first = pipeline[0];
  const leading = first && isPlainObject(first.$match) ? first.$match : undefined;
  const rows = (await read(collection, leading ?? {})).map(cloneJson);
  return runStages(read, rows, leading ? pipeline.slice(1) : pipeline, {});
}

async function runStages(read: DocumentReader, input: Row[], stages: Pipeline, variables: Row): Promise<Row[]> {
  let rows = input;
  let pending: Pipeline = [];
  const flush = (): void => {
    if (pending.length > 0) rows = inMemory(rows, pending, variables);
    pending = [];
  };
  for (const stage of stages) {
    if (isPlainObject(stage.$lookup)) {
      flush();
      rows = await lookup(read, rows, stage.$lookup, variables);
    } else if (stage.$unionWith !== undefined) {
      flush();
      const spec = stage.$unionWith;
      const coll = typeof spec === 'string' ? spec : String((spec as Row).coll);
      const pipeline = typeof spec === 'string' ? [] : ((spec as Row).pipeline as Pipeline | undefined) ?? [];
      rows = rows.concat(await runStages(read, (await read(coll, {})).map(cloneJson), pipeline, {}));
    } else {
      pending.push(stage);
    }
  }
  flush();
  return rows;
}

function inMemory(rows: Row[], stages: Pipeline, variables: Row): Row[] {
  const { value, options } = withLinearRegex(stages);
  const settings: Partial<Options> = { scriptEnabled: false, ...options, variables };
  return aggregate(rows, value, settings) as Row[];
}

interface LookupSpec {
  from: string;
  as: string;
  localField?: string;
  foreignField?: string;
  let?: Row;
  pipeline?: Pipeline;
}

function lookupSpecOf(spec: Row): LookupSpec {
  if (typeof spec.from !== 'string' || typeof spec.as !== 'string') {
    throw new Error(`$lookup needs a collection name in "from" and a field name in "as": ${JSON.stringify(spec)}`);
  }
  return spec as unknown as LookupSpec;
}

async function lookup(read: DocumentReader, rows: Row[], given: Row, outer: Row): Promise<Row[]> {
  const spec = lookupSpecOf(given);
  const { localField, foreignField } = spec;
  const lets = Object.entries(spec.let ?? {});
  const rowVariables = (row: Row): Row => {
    if (lets.length === 0) return outer;
    return { ...outer, ...Object.fromEntries(lets.map(([name, expression]) => [name, letValue(expression, row, outer)])) };
  };

  if (localField && foreignField) {
    const foreign = await read(spec.from, { [foreignField]: { $in: keyValues(rows, localField) } });
    const joinedRows: Row[] = [];
    // One row after another: a transaction's session takes one operation at a time, and a sub-pipeline reads.
    for (const row of rows) {
      const keys = new Set(keyValues([row], localField).map(keyOf));
      const matched = foreign.filter((document) => keyValues([document], foreignField).some((value) => keys.has(keyOf(value)))).map(cloneJson);
      joinedRows.push({ ...row, [spec.as]: spec.pipeline ? await runStages(read, matched, spec.pipeline, rowVariables(row)) : matched });
    }
    return joinedRows;
  }

  const join = letEquality(spec);
  const foreign = join
    ? await read(spec.from, { [join.foreignField]: { $in: keyValues(rows, join.localField) } })
    : await read(spec.from, {});
  const joinedRows: Row[] = [];
  // One row after another: the sub-pipeline of each row may read again through `read`.
  for (const row of rows) {
    joinedRows.push({ ...row, [spec.as]: await runStages(read, foreign.map(cloneJson), spec.pipeline ?? [], rowVariables(row)) });
  }
  return joinedRows;
}

/** A `let` expression evaluated on a row (`$field` is the field's value, an array as a whole). */
function letValue(expression: unknown, row: Row, outer: Row): unknown {
  if (typeof expression === 'string' && /^\$[^$]/.test(expression)) {
    let value: unknown = row;
    for (const step of expression.slice(1).split('.')) value = isPlainObject(value) ? value[step] : undefined;
    return value ?? null;
  }
  const [computed] = inMemory([cloneJson(row)], [{ $addFields: { __letValue: expression } }], outer);
  return computed?.__letValue ?? null;
}

/** The `let` form whose first `$match` is `$expr` comparing a variable bound to a top-level field with a foreign field. */
function letEquality(spec: LookupSpec): { localField: string; foreignField: string } | undefined {
  const firstMatch = spec.pipeline?.[0]?.$match;
  if (!isPlainObject(firstMatch) || Object.keys(firstMatch).length !== 1 || !isPlainObject(firstMatch.$expr)) return undefined;
  const expression = firstMatch.$expr;
  const fieldPath = (value: unknown): string | undefined => (typeof value === 'string' && /^\$[^$]/.test(value) ? value.slice(1) : undefined);
  const variable = (value: unknown): string | undefined => (typeof value === 'string' && value.startsWith('$$') ? value.slice(2) : undefined);
  const boundField = (name: string | undefined): string | undefined => {
    const bound = name === undefined ? undefined : spec.let?.[name];
    return typeof bound === 'string' && /^\$[^$.]+$/.test(bound) ? bound.slice(1) : undefined;
  };
  const { $eq: eq, $in: within } = expression as { $eq?: unknown; $in?: unknown };
  if (Array.isArray(eq) && eq.length === 2) {
    const [a, b] = eq;
    const localField = boundField(variable(a) ?? variable(b));
    const foreignField = fieldPath(a) ?? fieldPath(b);
    if (localField && foreignField) return { localField, foreignField };
  }
  if (Array.isArray(within) && within.length === 2) {
    const list = within[1];
    const ifNull = isPlainObject(list) && Array.isArray(list.$ifNull) ? list.$ifNull[0] : undefined;
    const localField = boundField(variable(within[0]));
    const foreignField = fieldPath(list) ?? fieldPath(ifNull);
    if (localField && foreignField) return { localField, foreignField };
    // `{ $in: ['$field', '$$ids'] }`: the variable holds the list of keys.
    const listField = boundField(variable(list) ?? variable(ifNull));
    const element = fieldPath(within[0]);
    if (listField && element) return { localField: listField, foreignField: element };
  }
  return undefined;
}

/** The values a `$lookup` compares: array elements one by one, absence as null. */
function keyValues(rows: readonly Row[], field: string): unknown[] {
  const values = new Map<string, unknown>();
  for (const row of rows) {
    for (const value of valuesAtPath(row, field)) {
      const items = Array.isArray(value) ? value : [value === MISSING ? null : value];
      for (const item of items) values.set(keyOf(item), item);
    }
  }
  return [...values.values()];
}

const keyOf = (value: unknown): string => JSON.stringify(value ?? null);
