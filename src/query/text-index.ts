import stem from 'wink-porter2-stemmer';
import type { FieldModel, TypeModel } from '../sdl/model.js';
import { QueryArgumentError } from './errors.js';
import { storedPath } from './schema-facts.js';
import { ENGLISH_STOP_WORDS } from './stop-words.js';
import { wordsOf } from './word-boundaries.js';

/**
 * Tokenisation for the `term` and `fulltext` indexes, shared by writes (which store the tokens next to
 * the document) and filters (which tokenise the query the same way), so the two always agree.
 */

/**
 * The version of the tokens below. Raise it with any change to what `termsOf` or `fulltextTokensOf`
 * return: an activation then rebuilds the stored tokens (server/text-token-sync.ts). Version 1 split on
 * every character that is not a letter or digit; version 2 follows Unicode word boundaries.
 */
export const TEXT_TOKENS_VERSION = 2;

export const termFieldName = (field: string): string => `_term_${field}`;
export const fulltextFieldName = (field: string): string => `_fulltext_${field}`;

const unique = (tokens: string[]): string[] => [...new Set(tokens)];

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * Lowercased one character at a time, as bleve's lowercase filter does (so a final "Σ" stays "σ"), then in
 * Unicode's NFKC form, as Dgraph's analyzers normalise every token ("ﬁ" → "fi", "Ａ１" → "a1").
 */
function normalisedToken(word: string): string {
  if (ASCII_ONLY.test(word)) return word.toLowerCase();
  let lowered = '';
  for (const char of word) lowered += char.toLowerCase();
  return lowered.normalize('NFKC');
}

/**
 * Term tokens, as Dgraph's `term` index makes them: the words of the text on Unicode word boundaries
 * (word-boundaries.ts), lowercased and NFKC-normalised, each once, in order of first appearance.
 */
export function termsOf(text: string): string[] {
  const words = wordsOf(text);
  // A title's few words are kept unique by a linear search, without the Set and copies `unique` makes.
  if (words.length > 16) return unique(words.map(normalisedToken));
  const tokens: string[] = [];
  for (const word of words) {
    const token = normalisedToken(word);
    if (!tokens.includes(token)) tokens.push(token);
  }
  return tokens;
}

/** Typographic apostrophes read as `'`, so "don’t" meets the stop word "don't" and "Alice’s" loses its `'s`. */
const TYPOGRAPHIC_APOSTROPHES = /[\u2018\u2019]/g;

const LETTERS_AND_APOSTROPHES = /^[\p{L}\p{M}']+$/u;

/** English full-text tokens: the term tokens without English stop words, stemmed (Porter2), each once. */
export function fulltextTokensOf(text: string): string[] {
  const tokens: string[] = [];
  for (const word of wordsOf(text)) {
    const token = normalisedToken(word).replace(TYPOGRAPHIC_APOSTROPHES, "'");
    if (ENGLISH_STOP_WORDS.has(token)) continue;
    // The Porter2 stemmer knows letters only: "3.14" or "v2" stay as they are.
    const stemmed = LETTERS_AND_APOSTROPHES.test(token) ? stem(token.replace(/'s$/, '')).replace(/'/g, '') : token;
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

/** The names of a field's derived search fields (by its stored name), made once per field: every write of it asks. */
interface DerivedNames {
  term?: string;
  fulltext?: string;
}

const derivedNamesByField = new WeakMap<FieldModel, DerivedNames>();

function derivedNamesOf(field: FieldModel): DerivedNames {
  let names = derivedNamesByField.get(field);
  if (!names) {
    names = {};
    if (field.search.includes('term')) names.term = termFieldName(storedPath(field));
    if (field.search.includes('fulltext')) names.fulltext = fulltextFieldName(storedPath(field));
    derivedNamesByField.set(field, names);
  }
  return names;
}

/**
 * The derived search fields for the fields being written (`values` by GraphQL field name; the derived
 * fields by stored name, sdl/storage-names.ts): `_term_<f>` for `@search(by: [term])` and
 * `_fulltext_<f>` for `fulltext`. A field written as null maps to undefined, so callers `$unset` it.
 * Fields of `values` without a text index (and keys that are not fields) contribute nothing.
 */
export function searchFieldsFor(type: TypeModel, values: Record<string, unknown>): Record<string, string[] | undefined> {
  const derived: Record<string, string[] | undefined> = {};
  for (const name of Object.keys(values)) {
    const field = type.fieldsByName.get(name);
    if (!field) continue;
    const { term, fulltext } = derivedNamesOf(field);
    if (term === undefined && fulltext === undefined) continue;
    const value = values[name];
    const absent = value === null || value === undefined;
    if (term !== undefined) derived[term] = absent ? undefined : tokensOfValue(type, name, value, termsOf);
    if (fulltext !== undefined) derived[fulltext] = absent ? undefined : tokensOfValue(type, name, value, fulltextTokensOf);
  }
  return derived;
}
