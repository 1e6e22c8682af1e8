/**
 * Runs an aggregation pipeline with mingo. mingo may modify its input documents (setting a nested path
 * writes into the object it reached), so unless every stage is known not to, the pipeline runs on copies.
 * Two things keep it from copying or scanning whole collections: a leading `$match` is answered through
 * the indexes, and an equality `$lookup` (localField/foreignField) fetches only the foreign documents whose
 * key occurs in the input, through `_id` or an index. Results are always copies.
 */
import { aggregate } from 'mingo';
import type { Options } from 'mingo/types';
import type { Pipeline } from '../port.js';
import type { CollectionView } from './collection-view.js';
import { matchingDocuments } from './find-documents.js';
import { MISSING, valuesAtPath } from './index-keys.js';
import { cloneJson, isPlainObject } from './json-values.js';

type Row = Record<string, unknown>;
export type ViewResolver = (collection: string) => CollectionView;

const WRITING_STAGES = new Set(['$out', '$merge']);

/** Stages that build new objects (or pass them through) without writing into their inputs ($project and
 * $unwind are not among them: mingo may remove or set fields in place there). */
const NON_MUTATING_STAGES = new Set(['$match', '$sort', '$skip', '$limit', '$count', '$group', '$sortByCount']);

/** Whether no stage, including those nested in `$lookup` or `$facet`, can modify its input documents. */
function isReadOnly(pipeline: Pipeline): boolean {
  return pipeline.every((stage) => {
    const [operator, spec] = Object.entries(stage)[0]!;
    if (operator === '$lookup') {
      const nested = isPlainObject(spec) ? spec.pipeline : undefined;
      return nested === undefined || (Array.isArray(nested) && isReadOnly(nested as Pipeline));
    }
    if (operator === '$facet') {
      return isPlainObject(spec) && Object.values(spec).every((nested) => Array.isArray(nested) && isReadOnly(nested as Pipeline));
    }
    return NON_MUTATING_STAGES.has(operator);
  });
}

export function runPipeline(collection: string, pipeline: Pipeline, viewOf: ViewResolver): Row[] {
  checkPipeline(collection, pipeline);
  const readOnly = isReadOnly(pipeline);
  const input = (documents: readonly Row[]): Row[] => (readOnly ? documents.slice() : documents.map(cloneJson));
  const options: Partial<Options> = { scriptEnabled: false, collectionResolver: (name: string) => input(viewOf(name).all()) };
  const view = viewOf(collection);

  let rows: Row[];
  let rest: Pipeline;
  const first = pipeline[0];
  if (first && '$match' in first && isPlainObject(first.$match)) {
    rows = input(matchingDocuments(view, collection, first.$match));
    rest = pipeline.slice(1);
  } else {
    rows = input(view.all());
    rest = pipeline;
  }

  let pending: Pipeline = [];
  const flush = (): void => {
    if (pending.length > 0) rows = run(collection, rows, pending, options);
    pending = [];
  };
  for (const stage of rest) {
    const lookup = equalityLookup(stage);
    if (!lookup) {
      pending.push(stage);
      continue;
    }
    flush();
    const foreign = viewOf(lookup.from);
    const localValues = distinctValues(rows, lookup.localField);
    const related = foreign.byFieldValues(lookup.foreignField, localValues) ?? foreign.all();
    rows = run(collection, rows, [{ $lookup: { ...lookup, from: input(related) } }], options);
  }
  flush();
  return readOnly ? rows.map(cloneJson) : rows;
}

function run(collection: string, rows: Row[], stages: Pipeline, options: Partial<Options>): Row[] {
  try {
    return aggregate(rows, stages, options) as Row[];
  } catch (error) {
    throw new Error(`aggregation on collection ${collection} failed: ${(error as Error).message}`);
  }
}

interface EqualityLookup {
  from: string;
  localField: string;
  foreignField: string;
  as: string;
}

function equalityLookup(stage: Row): EqualityLookup | undefined {
  const spec = stage.$lookup;
  if (!isPlainObject(spec)) return undefined;
  const { from, localField, foreignField, as } = spec;
  if (spec.pipeline !== undefined || spec.let !== undefined) return undefined;
  if (typeof from !== 'string' || typeof localField !== 'string' || typeof foreignField !== 'string' || typeof as !== 'string') {
    return undefined;
  }
  return { from, localField, foreignField, as };
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
