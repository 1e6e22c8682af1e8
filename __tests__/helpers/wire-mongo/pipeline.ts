/**
 * Aggregation over the catalog. mingo evaluates the stages; the stages that reach other collections are
 * run here, because mingo's `$lookup` runs a `pipeline` over the whole foreign collection even when
 * `localField`/`foreignField` are given (MongoDB runs it over the equality matches only):
 * `$lookup` (every form), `$unionWith`, `$facet` (whose branches may hold those) and a leading `$documents`.
 */
import { BSON } from 'mongodb';
import { aggregate } from 'mingo';
import type { Options } from 'mingo/types';
import { CommandError } from './errors';
import { isDocument, keyOf, valuesAtPath, type Document } from './values';

/** The collections a pipeline may read, by name, in the command's database. */
export type CollectionSource = (name: string) => Document[];

const WRITING_STAGES = new Set(['$out', '$merge']);

/** Runs `pipeline` over `input` (documents the caller owns: stages may modify them). */
export function runPipeline(input: Document[], pipeline: unknown, source: CollectionSource, variables: Document = {}): Document[] {
  const stages = checkPipeline(pipeline);
  let rows = input;
  let pending: Document[] = [];
  const flush = () => {
    if (pending.length > 0) rows = runWithMingo(rows, pending, source, variables);
    pending = [];
  };
  stages.forEach((stage, position) => {
    const [operator, spec] = Object.entries(stage)[0]!;
    switch (operator) {
      case '$documents':
        if (position !== 0) throw new CommandError('BadValue', '$documents is only valid as the first stage in a pipeline');
        rows = documentsStage(spec);
        return;
      case '$lookup':
        flush();
        rows = lookupStage(rows, spec, source, variables);
        return;
      case '$unionWith':
        flush();
        rows = rows.concat(unionWithStage(spec, source, variables));
        return;
      case '$facet':
        flush();
        rows = [facetStage(rows, spec, source, variables)];
        return;
      default:
        pending.push(stage);
    }
  });
  flush();
  return rows;
}

/** A document a stage may change freely: a deep copy of a stored one. */
export function copyDocument(document: Document): Document {
  return BSON.deserialize(BSON.serialize(document));
}

function checkPipeline(pipeline: unknown): Document[] {
  if (!Array.isArray(pipeline)) throw new CommandError('TypeMismatch', "'pipeline' option must be specified as an array");
  return pipeline.map((stage) => {
    const keys = isDocument(stage) ? Object.keys(stage) : [];
    if (keys.length !== 1) throw new CommandError('Location40323', 'A pipeline stage specification object must contain exactly one field.');
    if (WRITING_STAGES.has(keys[0]!)) throw new CommandError('IllegalOperation', `${keys[0]} is not supported by the wire test server`);
    return stage as Document;
  });
}

function runWithMingo(rows: Document[], stages: Document[], source: CollectionSource, variables: Document): Document[] {
  const options: Partial<Options> = {
    scriptEnabled: false,
    variables,
    collectionResolver: (name: string) => source(name).map(copyDocument),
  };
  try {
    return aggregate(rows, stages, options) as Document[];
  } catch (error) {
    if (error instanceof CommandError) throw error;
    const message = (error as Error).message;
    if (/not registered|unknown|unrecognized/i.test(message)) throw new CommandError('Location40324', `Unrecognized pipeline stage name or operator: ${message}`);
    throw new CommandError('BadValue', `PlanExecutor error during aggregation :: caused by :: ${message}`);
  }
}

function documentsStage(spec: unknown): Document[] {
  if (!Array.isArray(spec) || !spec.every(isDocument)) {
    throw new CommandError('BadValue', '$documents must evaluate to an array of objects (the wire test server takes a literal array)');
  }
  return spec.map(copyDocument);
}

function lookupStage(rows: Document[], spec: unknown, source: CollectionSource, outerVariables: Document): Document[] {
  if (!isDocument(spec) || typeof spec.as !== 'string') throw new CommandError('FailedToParse', '$lookup requires an object with a string "as"');
  const { from, localField, foreignField, pipeline, as } = spec;
  const hasEquality = localField !== undefined || foreignField !== undefined;
  if (hasEquality && (typeof localField !== 'string' || typeof foreignField !== 'string')) {
    throw new CommandError('FailedToParse', '$lookup requires both or neither of localField and foreignField to be strings');
  }
  if (!hasEquality && pipeline === undefined) throw new CommandError('FailedToParse', 'must specify localField/foreignField or pipeline for $lookup');
  if (spec.let !== undefined && !isDocument(spec.let)) throw new CommandError('FailedToParse', "$lookup argument 'let' must be an object");
  const foreign = typeof from === 'string' ? source(from) : [];
  const matchesOf = hasEquality ? equalityMatcher(foreign, foreignField as string) : () => foreign;
  return rows.map((row) => {
    const candidates = matchesOf(localValues(row, localField as string));
    if (pipeline === undefined) return { ...row, [as]: candidates.map(copyDocument) };
    const variables = { ...outerVariables, ...letVariables(row, spec.let) };
    return { ...row, [as]: runPipeline(candidates.map(copyDocument), pipeline, source, variables) };
  });
}

/** Foreign documents whose `field` equals (or, for an array, contains) one of the given values; absent counts as null. */
function equalityMatcher(foreign: Document[], field: string): (values: unknown[]) => Document[] {
  const byKey = new Map<string, Document[]>();
  for (const document of foreign) {
    for (const value of comparedValues(document, field)) {
      const key = keyOf(value);
      const list = byKey.get(key) ?? [];
      if (!list.includes(document)) list.push(document);
      byKey.set(key, list);
    }
  }
  return (values) => {
    const found = new Set<Document>();
    for (const value of values) for (const document of byKey.get(keyOf(value)) ?? []) found.add(document);
    return foreign.filter((document) => found.has(document));
  };
}

function localValues(row: Document, field: string | undefined): unknown[] {
  return field === undefined ? [] : comparedValues(row, field);
}

function comparedValues(document: Document, field: string): unknown[] {
  const values = valuesAtPath(document, field);
  if (values.length === 0) return [null];
  return values.flatMap((value) => (Array.isArray(value) ? value : [value]));
}

function letVariables(row: Document, letSpec: unknown): Document {
  if (!isDocument(letSpec) || Object.keys(letSpec).length === 0) return {};
  return runWithMingo([row], [{ $replaceWith: letSpec }], () => [], {})[0] ?? {};
}

function unionWithStage(spec: unknown, source: CollectionSource, variables: Document): Document[] {
  const { coll, pipeline } = typeof spec === 'string' ? { coll: spec, pipeline: [] } : isDocument(spec) ? spec : { coll: undefined, pipeline: [] };
  if (typeof coll !== 'string') throw new CommandError('FailedToParse', "$unionWith requires a collection name or { coll, pipeline }");
  return runPipeline(source(coll).map(copyDocument), pipeline ?? [], source, variables);
}

function facetStage(rows: Document[], spec: unknown, source: CollectionSource, variables: Document): Document {
  if (!isDocument(spec)) throw new CommandError('FailedToParse', '$facet requires an object of pipelines');
  return Object.fromEntries(Object.entries(spec).map(([name, pipeline]) => [name, runPipeline(rows.map(copyDocument), pipeline, source, variables)]));
}
