import type { Pipeline } from '../../src/store/port.js';

type Row = Record<string, unknown>;

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (expression: string) => ({ $cond: [{ $isArray: expression }, expression, [expression]] });

/**
 * `pipeline` for tests that run plans with plain mingo as a stand-in for MongoDB. mingo 7 runs the
 * sub-pipeline of a `$lookup` with `localField`/`foreignField` (MongoDB 5.0+) over every foreign document
 * instead of the matching ones; the `let` form below is what MongoDB means by it (an element of the local
 * value equals an element of the foreign one, a missing value counting as null), and mingo runs it right.
 * The embedded store handles the 5.0 form itself (store/embedded/pipeline-runner.ts).
 */
export function forMingo(pipeline: Pipeline): Pipeline {
  return pipeline.map((stage) => {
    const lookup = stage.$lookup;
    if (!isObject(lookup)) return stage;
    const nested = Array.isArray(lookup.pipeline) ? forMingo(lookup.pipeline as Pipeline) : undefined;
    if (typeof lookup.localField !== 'string' || typeof lookup.foreignField !== 'string' || !nested) {
      return nested ? { $lookup: { ...lookup, pipeline: nested } } : stage;
    }
    const { localField, foreignField, let: lets, ...rest } = lookup;
    const joined = { $gt: [{ $size: { $setIntersection: [asArray('$$__joinKey'), asArray(`$${foreignField}`)] } }, 0] };
    return {
      $lookup: {
        ...rest,
        let: { ...(isObject(lets) ? lets : {}), __joinKey: `$${localField}` },
        pipeline: [{ $match: { $expr: joined } }, ...nested],
      },
    };
  });
}
