import stem from 'wink-porter2-stemmer';
import type { TypeModel } from '../sdl/model.js';
import { QueryArgumentError } from './errors.js';
import { ENGLISH_STOP_WORDS } from './stop-words.js';

/**
 * Tokenisation for the `term` and `fulltext` indexes, shared by writes (which store the tokens next to
 * the document) and filters (which tokenise the query the same way), so the two always agree.
 */

export const termFieldName = (field: string): string => `_term_${field}`;
export const fulltextFieldName = (field: string): string => `_fulltext_${field}`;

const unique = (tokens: string[]): string[] => [...new Set(tokens)];

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** Lowercased words: runs of letters and digits (any script), each once, in order of first appearance. */
export function termsOf(text: string): string[] {
  // ASCII text (most of it) is its own NFC form and its only letters and digits are a-z, A-Z and 0-9:
  // the same words come out without Unicode normalisation and property classes, at a fraction of the cost.
  const words = ASCII_ONLY.test(text)
    ? text.toLowerCase().split(/[^a-z0-9]+/)
    : text.normalize('NFC').toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return unique(words.filter((term) => term.length > 0));
}

/** Words as the English full-text analyser sees them: apostrophes inside a word stay (`don't`), a possessive `'s` goes. */
function fulltextWordsOf(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter((word) => word.length > 0);
}

/** English full-text tokens: lowercased words without stop words, stemmed (Porter2), each once. */
export function fulltextTokensOf(text: string): string[] {
  const tokens: string[] = [];
  for (const word of fulltextWordsOf(text)) {
    if (ENGLISH_STOP_WORDS.has(word)) continue;
    const stemmed = stem(word.replace(/'s$/, '')).replace(/'/g, '');
    if (stemmed.length > 0) tokens.push(stemmed);
  }
  return unique(tokens);
}

function tokensOfValue(type: TypeModel, field: string, value: unknown, tokenise: (text: string) => string[]): string[] {
  if (typeof value === 'string') return tokenise(value);
  if (Array.isArray(value)) {
    return unique(value.flatMap((item) => (item === null || item === undefined ? [] : tokensOfValue(type, field, item, tokenise))));
  }
  throw new QueryArgumentError(`${type.name}.${field} has a text index, so its value must be a string or a list of strings, got ${JSON.stringify(value)}`);
}

/**
 * The derived search fields for the fields being written: `_term_<f>` for `@search(by: [term])` and
 * `_fulltext_<f>` for `fulltext`. A field written as null maps to undefined, so callers `$unset` it.
 * Fields of `values` without a text index (and keys that are not fields) contribute nothing.
 */
export function searchFieldsFor(type: TypeModel, values: Record<string, unknown>): Record<string, string[] | undefined> {
  const derived: Record<string, string[] | undefined> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = type.fieldsByName.get(name);
    if (!field) continue;
    const absent = value === null || value === undefined;
    if (field.search.includes('term')) {
      derived[termFieldName(name)] = absent ? undefined : tokensOfValue(type, name, value, termsOf);
    }
    if (field.search.includes('fulltext')) {
      derived[fulltextFieldName(name)] = absent ? undefined : tokensOfValue(type, name, value, fulltextTokensOf);
    }
  }
  return derived;
}
