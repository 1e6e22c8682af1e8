/**
 * Runs an aggregation pipeline with mingo. mingo may modify its input documents (setting a nested path
 * writes into the object it reached), so unless every stage is known not to, the pipeline runs on copies.
 * Two things keep it from copying or scanning whole collections: a leading `$match` is answered through
 * the indexes, and a `$lookup` that joins on equality (localField/foreignField, with or without a pipeline,
 * or a `let` variable compared with `$eq`/`$in` in the first `$match` of its pipeline) gets only the foreign
 * documents whose key occurs in the input, found through `_id` or an index. A `$group` of all rows over top-level fields is computed
 * by group-all.ts, and one by a top-level string field (a parent id) by group-by-key.ts. Results are always copies.
 */
import { aggregate } from 'mingo';
import type { Options } from 'mingo/types';
import { DeadlineExceededError, type Pipeline } from '../port.js';
import type { CollectionView } from './collection-view.js';
import { countDocuments, readMatchingDocuments } from './find-documents.js';
import { countGroup, groupAll } from './group-all.js';
import { groupFromIndexes } from './index-aggregates.js';
import { groupByKey } from './group-by-key.js';
import { MISSING, valuesAtPath } from './index-keys.js';
import { cloneJson, isPlainObject } from './json-values.js';
import { NO_DEADLINE, type ScanDeadline } from './scan-deadline.js';
import { withLinearRegex } from './linear-regex.js';

type Row = Record<string, unknown>;
export type ViewResolver = (collection: string) => CollectionView;

const WRITING_STAGES = new Set(['$out', '$merge']);

/** Stages that never write into the objects they receive. */
const READ_ONLY_STAGES = new Set(['$match', '$sort', '$skip', '$limit', '$count', '$group', '$sortByCount', '$replaceRoot', '$replaceWith']);

/**
 * Stages that write only top-level fields of a fresh shallow copy, so they are read-only when every path
 * they name is top-level (a nested path would be set or removed inside an object shared with the input).
 */
const TOP_LEVEL_WRITERS = new Set(['$project', '$addFields', '$set', '$unset']);

const isTopLevel = (path: unknown): boolean => typeof path === 'string' && !path.includes('.');

/** Whether no stage, including those nested in `$lookup`, `$unionWith` or `$facet`, can modify its input documents. */
function isReadOnly(pipeline: unknown): boolean {
  return Array.isArray(pipeline) && pipeline.every((stage: Row) => {
    const [operator, spec] = Object.entries(stage)[0]!;
    if (READ_ONLY_STAGES.has(operator)) return true;
    if (TOP_LEVEL_WRITERS.has(operator)) {
      const paths = operator === '$unset' ? (Array.isArray(spec) ? spec : [spec]) : isPlainObject(spec) ? Object.keys(spec) : [undefined];
      return paths.every(isTopLevel);
    }
    switch (operator) {
      case '$lookup':
        return isPlainObject(spec) && (spec.pipeline === undefined || isReadOnly(spec.pipeline));
      case '$unionWith':
        return typeof spec === 'string' || (isPlainObject(spec) && (spec.pipeline === undefined || isReadOnly(spec.pipeline)));
      case '$facet':
        return isPlainObject(spec) && Object.values(spec).every(isReadOnly);
      default:
        return false;
    }
  });
}

/**
 * Every row a stage consumes counts as one scanned document against `deadline`. The leading `$match`
 * may pause between slices of its scan (see find-documents.ts); the stages after it run in one go.
 */
export async function runPipeline(collection: string, givenPipeline: Pipeline, viewOf: ViewResolver, deadline: ScanDeadline = NO_DEADLINE): Promise<Row[]> {
  checkPipeline(collection, givenPipeline);
  const grouped = await groupWithoutRows(collection, givenPipeline, viewOf, deadline);
  if (grouped) return grouped;
  const { value: pipeline, options: regexOptions } = withLinearRegex(givenPipeline);
  const readOnly = isReadOnly(pipeline);
  const input = (documents: readonly Row[]): Row[] => (readOnly ? documents.slice() : documents.map(cloneJson));
  const options: Partial<Options> = {
    scriptEnabled: false,
    ...regexOptions,
    collectionResolver: (name: string) => input(viewOf(name).all()),
  };
  const view = viewOf(collection);

  let rows: Row[];
  let rest: Pipeline;
  const first = pipeline[0];
  if (first && '$match' in first && isPlainObject(first.$match)) {
    rows = input(await readMatchingDocuments(view, collection, first.$match, deadline));
    rest = pipeline.slice(1);
  } else {
    rows = input(view.all());
    rest = pipeline;
  }

  let pending: Pipeline = [];
  const flush = (): void => {
    if (pending.length > 0) rows = run(collection, rows, pending, options, deadline);
    pending = [];
  };
  for (const stage of rest) {
    if ('$group' in stage) {
      flush();
      rows = groupAll(rows, stage) ?? groupByKey(rows, stage) ?? run(collection, rows, [stage], options, deadline);
      continue;
    }
    const join = equalityJoinOf(stage);
    if (!join) {
      pending.push(stage);
      continue;
    }
    flush();
    const foreign = viewOf(join.from);
    if (join.withPipeline) {
      // localField/foreignField with a pipeline (MongoDB 5.0+): the pipeline sees only the row's own matches.
      // mingo would run it over every document it is given, so each row gets just the ones sharing its key.
      const candidates = foreign.byFieldValues(join.foreignField, distinctValues(rows, join.localField)) ?? foreign.all();
      const byKey = new Map<string, Row[]>();
      for (const document of candidates) {
        for (const value of distinctValues([document], join.foreignField)) {
          const key = JSON.stringify(value);
          const holders = byKey.get(key);
          if (holders) holders.push(document);
          else byKey.set(key, [document]);
        }
      }
      const as = (stage.$lookup as Row).as as string;
      rows = rows.map((row) => {
        deadline.tick();
        const related = new Set(distinctValues([row], join.localField).flatMap((value) => byKey.get(JSON.stringify(value)) ?? []));
        if (related.size === 0) return { ...row, [as]: [] };
        return run(collection, [row], [{ $lookup: { ...(stage.$lookup as Row), from: input([...related]) } }], options, deadline)[0]!;
      });
      continue;
    }
    if (join.perRow && foreign.canLookUp(join.foreignField)) {
      rows = rows.map((row) => {
        deadline.tick();
        return joinPerRow(collection, row, join.perRow!, foreign.byFieldValues(join.foreignField, distinctValues([row], join.localField)) ?? foreign.all(), input, options);
      });
      continue;
    }
    const localValues = distinctValues(rows, join.localField);
    const related = foreign.byFieldValues(join.foreignField, localValues) ?? foreign.all();
    rows = run(collection, rows, [{ $lookup: { ...(stage.$lookup as Row), from: input(related) } }], options, deadline);
  }
  flush();
  return readOnly ? rows.map(cloneJson) : rows;
}

function run(collection: string, rows: Row[], stages: Pipeline, options: Partial<Options>, deadline: ScanDeadline = NO_DEADLINE): Row[] {
  try {
    return aggregate(deadline.paced(rows), stages, options) as Row[];
  } catch (error) {
    if (error instanceof DeadlineExceededError) throw error;
    throw new Error(`aggregation on collection ${collection} failed: ${(error as Error).message}`);
  }
}

/** A `$lookup` whose matches all have `foreignField` equal to (or containing) a value of `localField`. */
interface EqualityJoin {
  from: string;
  localField: string;
  foreignField: string;
  /** localField/foreignField together with a `pipeline`: the pipeline runs per row on that row's matches. */
  withPipeline?: boolean;
  /** For the `let`/`pipeline` form whose variables are all top-level fields: enough to run it row by row. */
  perRow?: { variables: Array<[name: string, field: string]>; pipeline: Pipeline; as: string };
}

/**
 * One row of a `let`/`pipeline` `$lookup`: its sub-pipeline runs on just the foreign documents an index
 * finds for the row's key, instead of on every candidate for every row.
 */
function joinPerRow(
  collection: string,
  row: Row,
  join: NonNullable<EqualityJoin['perRow']>,
  related: readonly Row[],
  input: (documents: readonly Row[]) => Row[],
  options: Partial<Options>,
): Row {
  const variables = Object.fromEntries(join.variables.map(([name, field]) => [name, row[field]]));
  const joined = run(collection, input(related), join.pipeline, { ...options, variables });
  return { ...row, [join.as]: joined };
}

function equalityJoinOf(stage: Row): EqualityJoin | undefined {
  const spec = stage.$lookup;
  if (!isPlainObject(spec) || typeof spec.from !== 'string') return undefined;
  const { from, localField, foreignField } = spec;
  if (typeof localField === 'string' && typeof foreignField === 'string') {
    return { from, localField, foreignField, withPipeline: Array.isArray(spec.pipeline) && spec.pipeline.length > 0 };
  }
  if (!isPlainObject(spec.let) || !Array.isArray(spec.pipeline)) return undefined;
  const firstMatch = (spec.pipeline[0] as Row | undefined)?.$match;
  if (!isPlainObject(firstMatch) || Object.keys(firstMatch).length !== 1 || !isPlainObject(firstMatch.$expr)) return undefined;
  const expression = firstMatch.$expr;
  const conjuncts = Array.isArray(expression.$and) ? expression.$and : [expression];
  for (const conjunct of conjuncts) {
    const comparison = variableComparison(conjunct);
    if (!comparison) continue;
    const bound = spec.let[comparison.variable];
    // Only a top-level local field: a dotted one may collect values from an array of objects.
    if (typeof bound === 'string' && isTopLevelFieldPath(bound)) {
      const lets = Object.entries(spec.let);
      const simple = lets.every(([, value]) => typeof value === 'string' && isTopLevelFieldPath(value));
      const perRow = simple && typeof spec.as === 'string'
        ? { variables: lets.map(([name, value]): [string, string] => [name, (value as string).slice(1)]), pipeline: spec.pipeline as Pipeline, as: spec.as }
        : undefined;
      return { from, localField: bound.slice(1), foreignField: comparison.field, perRow };
    }
  }
  return undefined;
}

const isTopLevelFieldPath = (value: string): boolean => /^\$[^$.][^.]*$/.test(value);

/** `{ $eq: ['$field', '$$var'] }` (either order) or `{ $in: ['$$var', '$field' | { $ifNull: ['$field', []] }] }`. */
function variableComparison(expression: unknown): { variable: string; field: string } | undefined {
  if (!isPlainObject(expression) || Object.keys(expression).length !== 1) return undefined;
  const fieldPath = (value: unknown): string | undefined =>
    typeof value === 'string' && /^\$[^$]/.test(value) ? value.slice(1) : undefined;
  const variable = (value: unknown): string | undefined =>
    typeof value === 'string' && /^\$\$[A-Za-z_][A-Za-z0-9_]*$/.test(value) ? value.slice(2) : undefined;
  const { $eq: eq, $in: within } = expression;
  if (Array.isArray(eq) && eq.length === 2) {
    const [a, b] = eq;
    const field = fieldPath(a) ?? fieldPath(b);
    const name = variable(a) ?? variable(b);
    if (field && name) return { variable: name, field };
  }
  if (Array.isArray(within) && within.length === 2) {
    const name = variable(within[0]);
    const list = within[1];
    const ifNull = isPlainObject(list) && Array.isArray(list.$ifNull) ? list.$ifNull : undefined;
    const field = fieldPath(list) ?? (ifNull && ifNull.length === 2 && Array.isArray(ifNull[1]) && ifNull[1].length === 0 ? fieldPath(ifNull[0]) : undefined);
    if (field && name) return { variable: name, field };
  }
  return undefined;
}

/** The values a `$lookup` compares: array elements one by one, absence as null. */
function distinctValues(rows: Row[], field: string): unknown[] {
  const values = new Map<string, unknown>();
  for (const row of rows) {
    for (const value of valuesAtPath(row, field)) {
      const items = Array.isArray(value) ? value : [value === MISSING ? null : value];
      for (const item of items) values.set(JSON.stringify(item), item);
    }
  }
  return Array.from(values.values());
}

/**
 * `[{ $match }, { $group: { _id: null, ... } }]` (what `aggregateT` compiles to) or the `$group` alone,
 * without building rows: from index postings when they answer the filter and the aggregated fields
 * (index-aggregates.ts), or, for a group that only counts, by countDocuments.
 */
async function groupWithoutRows(collection: string, pipeline: Pipeline, viewOf: ViewResolver, deadline: ScanDeadline): Promise<Row[] | undefined> {
  const [first, second] = pipeline;
  const match = pipeline.length === 2 && first && '$match' in first && isPlainObject(first.$match) ? first.$match : undefined;
  const group = match ? second : pipeline.length === 1 ? first : undefined;
  if (!group || !('$group' in group)) return undefined;
  const view = viewOf(collection);
  const state = view.current;
  const fromIndexes = match && state ? groupFromIndexes(state, match, group) : undefined;
  if (fromIndexes) return fromIndexes;
  if (!countGroup(0, group)) return undefined;
  return countGroup(match ? await countDocuments(view, collection, match, deadline) : view.size(), group);
}

function checkPipeline(collection: string, pipeline: Pipeline): void {
  if (!Array.isArray(pipeline)) throw new Error(`invalid pipeline for collection ${collection}: expected an array of stages`);
  pipeline.forEach((stage, i) => {
    const keys = isPlainObject(stage) ? Object.keys(stage) : [];
    if (keys.length !== 1 || !keys[0]!.startsWith('$')) {
      throw new Error(`invalid pipeline for collection ${collection}: stage ${i} must be an object with exactly one $-operator`);
    }
    if (WRITING_STAGES.has(keys[0]!)) {
      throw new Error(`invalid pipeline for collection ${collection}: stage ${i} (${keys[0]}) writes, which aggregate does not allow`);
    }
  });
}
