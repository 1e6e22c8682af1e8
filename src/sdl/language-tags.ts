import type { DirectiveNode } from 'graphql';
import type { Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';
import { fingerprint64 } from 'farmhash-modern';
import type { FieldDraft } from './fields.js';
import type { FieldModel, SearchIndex } from './model.js';

/**
 * Language tags in `@dgraph(pred:)`, as Dgraph's GraphQL layer reads them:
 * - `"Person.name@hi"`: one language of the predicate. Stored in a field of its own (the predicate with
 *   its tag, `Person%2Ename@hi`), written, filtered and ordered like any String field.
 * - `"Person.name@hi:en"`, `"Person.name@hi:en:."`, `"Person.name@."`: a preference. Read-only (not in
 *   Add/Update inputs); it reads the first language of the list that has a value, and `.` goes on with the
 *   untagged value, then any language the type stores for the predicate, smallest FarmHash fingerprint of
 *   the tag first (Dgraph's posting order; posting/list.go `postingForLangs`).
 */

/** What `@dgraph(pred:)` says after its `@`. */
export interface LanguagePredicate {
  predicate: string;
  /** The tags, in order; `.` for "the untagged value, else any language". */
  tags: string[];
}

/** Dgraph's tags are BCP 47 shaped: letters, then `-`-separated letters and digits (and at most 35 characters). */
const TAG = /^[A-Za-z]+(-[A-Za-z0-9]+)*$/;
const MAX_TAG_LENGTH = 35;

/** Indexes answered from tokens stored beside one value, which a field reading one of several values has none of. */
const TOKENISED: readonly SearchIndex[] = ['term', 'fulltext', 'ngram'];

/** Whether the predicate names more than one language (Dgraph's isMultiLangField without inputs: a `:` list). */
export const isMultiLanguage = (language: LanguagePredicate): boolean => language.tags.length > 1;

/**
 * Reads the language part of a predicate, checking Dgraph's rules (rules.go dgraphDirectiveValidation, same
 * order and wording); undefined, with errors reported, when the field cannot carry it.
 */
export function readLanguagePredicate(written: string, field: FieldDraft, directive: DirectiveNode, errors: ErrorSink, describe: Describe): LanguagePredicate | undefined {
  const { model } = field;
  if (model.of.kind !== 'scalar' || model.of.scalar !== 'String') {
    errors.at(describe(`Expected type \`String\` for language tag field but got \`${model.namedType}\``), field.node);
    return undefined;
  }
  const idDirective = field.directives.get('id');
  if (idDirective) {
    errors.at(describe('@id directive not supported on language tag fields'), idDirective);
    return undefined;
  }
  const [predicate = '', tagText = '', ...more] = written.split('@');
  const search = field.directives.get('search');
  if (search && tagText.includes(':')) {
    errors.at(describe('@search directive not applicable on language tag field with multiple languages'), search);
    return undefined;
  }
  if (tagText === '*') {
    errors.at(describe('`*` language tag not supported in GraphQL'), directive);
    return undefined;
  }
  if (tagText === '') {
    errors.at(describe('empty language tag not supported'), directive);
    return undefined;
  }
  if (more.length > 0) {
    errors.at(describe('multiple language tag not supported'), directive);
    return undefined;
  }
  if (model.list) {
    errors.at(describe('a language tag field holds one String, not a list'), field.node);
    return undefined;
  }
  if (predicate === '') {
    errors.at(describe(`@dgraph(pred: ${JSON.stringify(written)}) names no predicate before its language tag`), directive);
    return undefined;
  }
  const tags = tagText.split(':');
  const wrong = tags.find((tag) => tag !== '.' && !(TAG.test(tag) && tag.length <= MAX_TAG_LENGTH));
  if (wrong !== undefined) {
    errors.at(describe(`${JSON.stringify(wrong)} is not a language tag (letters, then "-" and letters or digits, at most ${MAX_TAG_LENGTH} characters; "." for any language)`), directive);
    return undefined;
  }
  const tokenised = model.search.filter((index) => TOKENISED.includes(index));
  if (search && tags[0] === '.' && tokenised.length > 0) {
    errors.at(describe(`@search(by: [${tokenised.join(', ')}]) is not supported on an any-language (@.) field here: its tokens are kept per stored value (hash, exact, regexp and trigram are)`), search);
    return undefined;
  }
  return { predicate, tags };
}

/** The stored field of one language of a predicate (before `storedNameOf`). */
export const taggedName = (predicate: string, tag: string): string => `${predicate}@${tag}`;

/** A field of a type and the Dgraph predicate it stands for. */
export interface PredicateField {
  model: FieldModel;
  predicate: string;
  language?: LanguagePredicate;
}

/**
 * The stored paths a preference field reads, in the order tried. `storedPathOf` gives a field's stored
 * path; `storedNameOf` makes a predicate name safe to store.
 */
export function preferencePaths(
  language: LanguagePredicate,
  fields: readonly PredicateField[],
  storedPathOf: (field: FieldModel) => string,
  storedNameOf: (name: string) => string,
): string[] {
  const paths: string[] = [];
  const push = (path: string) => {
    if (!paths.includes(path)) paths.push(path);
  };
  const anyIndex = language.tags.indexOf('.');
  const listed = anyIndex === -1 ? language.tags : language.tags.slice(0, anyIndex);
  for (const tag of listed) push(storedNameOf(taggedName(language.predicate, tag)));
  if (anyIndex === -1) return paths;
  const samePredicate = fields.filter((field) => field.predicate === language.predicate);
  const untagged = samePredicate.find((field) => field.language === undefined);
  push(untagged ? storedPathOf(untagged.model) : storedNameOf(language.predicate));
  const known = new Set(samePredicate.flatMap((field) => field.language?.tags ?? []).filter((tag) => tag !== '.'));
  const byFingerprint = [...known].map((tag) => ({ tag, print: fingerprint64(tag) })).sort((a, b) => (a.print < b.print ? -1 : a.print > b.print ? 1 : 0));
  for (const { tag } of byFingerprint) push(storedNameOf(taggedName(language.predicate, tag)));
  return paths;
}
