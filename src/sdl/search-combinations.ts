import type { ASTNode } from 'graphql';
import type { Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';
import type { SearchIndex } from './model.js';

const DATE_TIME_INDEXES: readonly SearchIndex[] = ['year', 'month', 'day', 'hour'];

/**
 * Index lists Dgraph refuses although each index fits the field on its own (wording from Dgraph's rules):
 * `trigram` with `regexp` (regexp search runs on the trigram index, so the two are one index), and more
 * than one DateTime granularity (a DateTime predicate has a single index).
 */
export function checkIndexCombination(chosen: readonly SearchIndex[], at: ASTNode, errors: ErrorSink, describe: Describe): void {
  if (chosen.includes('trigram') && chosen.includes('regexp')) {
    errors.at(describe("the argument to @search 'trigram' is the same as the index 'regexp' provided before and shouldn't be used together"), at);
  }
  const dateTimeIndexes = chosen.filter((index) => DATE_TIME_INDEXES.includes(index));
  if (dateTimeIndexes.length > 1) {
    errors.at(describe(`has the search directive on DateTime. DateTime allows only one argument for @search (found ${dateTimeIndexes.join(', ')})`), at);
  }
}
