import stem from 'wink-porter2-stemmer';
import type { FieldModel, TypeModel } from '../sdl/model.js';
import { QueryArgumentError } from './errors.js';
import { storedPath } from './schema-facts.js';
import { ENGLISH_STOP_WORDS } from './stop-words.js';
import { wordsOf } from './word-boundaries.js';

/**
 * Tokenisation for the `term`, `fulltext` and `ngram` indexes, shared by writes (which store the tokens next to
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
export const ngramFieldName = (field: string): string => `_ngram_${field}`;

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

/**
 * The English full-text words of a text in order, repeats kept: the term tokens without English stop
 * words, stemmed (Porter2), as bleve's analyzer hands them to Dgraph's `fulltext` and `ngram` tokenisers.
 */
function fulltextWordsOf(text: string): string[] {
  const tokens: string[] = [];
  for (const word of wordsOf(text)) {
    const token = normalisedToken(word).replace(TYPOGRAPHIC_APOSTROPHES, "'");
    if (ENGLISH_STOP_WORDS.has(token)) continue;
    // The Porter2 stemmer knows letters only: "3.14" or "v2" stay as they are.
    const stemmed = LETTERS_AND_APOSTROPHES.test(token) ? stem(token.replace(/'s$/, '')).replace(/'/g, '') : token;
    if (stemmed.length > 0) tokens.push(stemmed);
  }
  return tokens;
}

/** English full-text tokens: the full-text words, each once. */
export function fulltextTokensOf(text: string): string[] {
  return unique(fulltextWordsOf(text));
}

/** The runs of `size` consecutive words, joined by a space (a run shorter than `size` at the end is none). */
function runsOf(words: readonly string[], size: number): string[] {
  const runs: string[] = [];
  for (let start = 0; start + size <= words.length; start += 1) runs.push(words.slice(start, start + size).join(' '));
  return runs;
}

/**
 * The tokens Dgraph's `ngram` index stores for a text (tok.NGramTokenizer.Tokens): the full-text words
 * (stop words removed, so the words around one become neighbours) and every run of 2, 3 and 4
 * consecutive words, each once.
 */
export function ngramTokensOf(text: string): string[] {
  const words = fulltextWordsOf(text);
  return unique([1, 2, 3, 4].flatMap((size) => runsOf(words, size)));
}

/**
 * The tokens an `ngram` filter looks for (tok.NGramTokenizer.QueryTokens): every run of 3 consecutive
 * full-text words of the query, or the whole query when it has fewer than 3. A value matches when it has
 * any of them, as Dgraph's `ngram` function does (it is not an "all of" function).
 */
export function ngramQueryTokensOf(text: string): string[] {
  const words = fulltextWordsOf(text);
  return words.length === 0 ? [] : unique(runsOf(words, Math.min(3, words.length)));
}

function tokensOfValue(type: TypeModel, field: string, value: unknown, tokenise: (text: string) => string[]): string[] {
  if (typeof value === 'string') return tokenise(value);
  if (Array.isArray(value)) {
    return unique(value.flatMap((item) => (item === null || item === undefined ? [] : tokensOfValue(type, field, item, tokenise))));
  }
  throw new QueryArgumentError(`${type.name}.${field} has a text index, so its value must be a string or a list of strings, got ${JSON.stringify(value)}`);
}

/** A text index kind: the derived field its tokens are stored in, and how a stored value is tokenised. */
export interface TokenIndex {
  index: 'term' | 'fulltext' | 'ngram';
  fieldName: (storedField: string) => string;
  tokenise: (text: string) => string[];
}

/** The indexes whose tokens are stored beside the value, in the order their derived fields are written. */
export const TOKEN_INDEXES: readonly TokenIndex[] = [
  { index: 'term', fieldName: termFieldName, tokenise: termsOf },
  { index: 'fulltext', fieldName: fulltextFieldName, tokenise: fulltextTokensOf },
  { index: 'ngram', fieldName: ngramFieldName, tokenise: ngramTokensOf },
];

/** A field's derived search field: its name (by the field's stored name) and the tokeniser that fills it. */
interface DerivedField {
  name: string;
  tokenise: (text: string) => string[];
}

const derivedFieldsByField = new WeakMap<FieldModel, DerivedField[]>();

/** The derived search fields of a field, made once per field: every write of it asks. */
function derivedFieldsOf(field: FieldModel): DerivedField[] {
  let derived = derivedFieldsByField.get(field);
  if (!derived) {
    derived = TOKEN_INDEXES.filter(({ index }) => field.search.includes(index)).map(({ fieldName, tokenise }) => ({ name: fieldName(storedPath(field)), tokenise }));
    derivedFieldsByField.set(field, derived);
  }
  return derived;
}

/**
 * The derived search fields for the fields being written (`values` by GraphQL field name; the derived
 * fields by stored name, sdl/storage-names.ts): `_term_<f>` for `@search(by: [term])`, `_fulltext_<f>` for
 * `fulltext` and `_ngram_<f>` for `ngram`. A field written as null maps to undefined, so callers `$unset` it.
 * Fields of `values` without a text index (and keys that are not fields) contribute nothing.
 */
export function searchFieldsFor(type: TypeModel, values: Record<string, unknown>): Record<string, string[] | undefined> {
  const derived: Record<string, string[] | undefined> = {};
  for (const name of Object.keys(values)) {
    const field = type.fieldsByName.get(name);
    if (!field) continue;
    const fields = derivedFieldsOf(field);
    if (fields.length === 0) continue;
    const value = values[name];
    const absent = value === null || value === undefined;
    for (const { name: derivedName, tokenise } of fields) derived[derivedName] = absent ? undefined : tokensOfValue(type, name, value, tokenise);
  }
  return derived;
}
