/**
 * `$regex` in linear time. mingo runs `$regex` with JavaScript's backtracking RegExp, where `/(a+)+$/`
 * against 30 characters takes a minute. Before mingo sees a filter or pipeline, every `$regex` condition
 * (with its `$options`) becomes `$linearRegex`, an operator of LINEAR_REGEX_CONTEXT that matches with the
 * RE2 engine of query/regexp.ts: the same pattern rules the MongoDB backend's queries are checked against.
 */
import { Context } from 'mingo/core';
import { $regex as mingoRegex } from 'mingo/operators/query';
import type { AnyObject, Options } from 'mingo/types';
import { linearRegexp, type RegexpSpec } from '../../query/regexp.js';
import { isPlainObject } from './json-values.js';

const OPERATOR = '$linearRegex';

/**
 * mingo's own `$regex` operator resolves the field path (arrays included) and calls `exec` on its operand;
 * handing it an RE2 matcher in place of a RegExp keeps MongoDB's path semantics and changes only the engine.
 */
function linearRegexOperator(selector: string, value: unknown, options: Options): (document: AnyObject) => boolean {
  const matcher = linearRegexp(value as RegexpSpec);
  const engine = { exec: (text: string): true | null => (matcher.test(text) ? true : null) };
  return mingoRegex(selector, engine, options);
}

const LINEAR_REGEX_CONTEXT = Context.init({ query: { [OPERATOR]: linearRegexOperator } });

/**
 * `value` (a filter or a pipeline) with each `$regex` condition made a `$linearRegex` one, and the mingo
 * options that know that operator. Without `$regex` nothing changes: merging one more operator context
 * costs every query a copy of mingo's operator tables.
 */
export function withLinearRegex<T>(value: T): { value: T; options: Pick<Options, 'context'> | Record<string, never> } {
  const rewritten = rewrite(value) as T;
  return rewritten === value ? { value, options: {} } : { value: rewritten, options: { context: LINEAR_REGEX_CONTEXT } };
}

function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const rewritten = rewrite(item);
      if (rewritten !== item) (copy ??= value.slice())[i] = rewritten;
    });
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key === '$regex' || key === '$options') continue;
    const rewritten = rewrite(item);
    if (rewritten !== item) (copy ??= { ...value })[key] = rewritten;
  }
  if (!('$regex' in value)) return copy ?? value;
  const { $regex: pattern, $options: flags, ...rest } = copy ?? value;
  return { ...rest, [OPERATOR]: specOf(pattern, flags) };
}

function specOf(pattern: unknown, flags: unknown): RegexpSpec {
  if (pattern instanceof RegExp) return { pattern: pattern.source, flags: typeof flags === 'string' ? flags : pattern.flags };
  if (typeof pattern !== 'string') throw new Error(`$regex expects a string pattern, got ${JSON.stringify(pattern)}`);
  if (flags !== undefined && typeof flags !== 'string') throw new Error(`$options expects a string, got ${JSON.stringify(flags)}`);
  return { pattern, flags: flags ?? '' };
}
