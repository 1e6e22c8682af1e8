import { isReservedWord } from './reserved-names.js';
import type { DirectiveNode } from 'graphql';
import { describeValue, directiveArguments, stringValueOf, type Describe } from './directive-values.js';
import { fieldMessage, typeMessage, type ErrorSink } from './errors.js';
import type { FieldDraft } from './fields.js';
import type { FieldModel } from './model.js';
import { isMultiLanguage, preferencePaths, readLanguagePredicate, taggedName, type PredicateField } from './language-tags.js';
import type { TypeDraft } from './types.js';

/**
 * `@dgraph(type:)` and `@dgraph(pred:)` read as storage names: the collection a type's objects live in and
 * the document field a GraphQL field's value is stored under. So a schema written for Dgraph loads, a
 * field can be renamed while its stored data stays where it is (`title @dgraph(pred: "label")`), and a
 * type can serve an existing collection under another name.
 *
 * Dgraph's names may hold characters MongoDB gives a meaning to in field names (`.` separates a path, a
 * leading `$` is an operator): `storedNameOf` maps each name to a safe one, one to one, by writing `%` as
 * `%25`, `.` as `%2E` and `$` as `%24` (`Post.title` is stored as `Post%2Etitle`, `dgraph.type` as
 * `dgraph%2Etype`). A name without those characters is stored as written.
 */
export function storedNameOf(name: string): string {
  return name.replace(/[%.$]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The stored name back to the name as written in the schema. */
export function writtenNameOf(storedName: string): string {
  return storedName.replace(/%(25|2E|24)/g, (_, code: string) => String.fromCharCode(parseInt(code, 16)));
}

/** What `@dgraph(pred: "~p")` starts with: the field is the reverse of the forward predicate `p`. */
const REVERSE_MARK = '~';

/**
 * Reads `@dgraph` on every type and field: sets `storedName` on the models and `reversePredicate` on
 * reverse fields, and reports what cannot be stored: empty or reserved names, two fields (or two types)
 * stored under one name. Runs after interface fields are inherited and before relations are paired.
 */
export function readStorageNames(drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  const predicates = new Map<FieldModel, PredicateField>();
  for (const draft of drafts.values()) {
    readTypeStorageName(draft, errors);
    for (const field of draft.ownFields) predicates.set(field.model, readFieldStorageName(draft, field, errors));
  }
  for (const draft of drafts.values()) {
    for (const field of draft.fields) {
      if (field.origin === draft.name) continue;
      copyInheritedStorageName(field, drafts);
      const source = drafts.get(field.origin)?.fieldsByName.get(field.model.name)?.model;
      const predicate = source && predicates.get(source);
      if (predicate) predicates.set(field.model, { ...predicate, model: field.model });
    }
  }
  for (const draft of drafts.values()) readPreferencePaths(draft, predicates);
  checkCollectionsAreDistinct(drafts, errors);
  for (const draft of drafts.values()) checkStoredFieldsAreDistinct(draft, errors);
}

function readTypeStorageName(draft: TypeDraft, errors: ErrorSink): void {
  const directive = draft.directives.dgraph;
  if (!directive) return;
  const describe: Describe = (message) => typeMessage(draft.name, message);
  const name = nameArgument(directive, 'type', errors, describe);
  if (name === undefined) return;
  if (name.startsWith('_')) {
    errors.at(describe(`@dgraph(type: ${JSON.stringify(name)}): names starting with "_" are reserved for the service's own collections`), directive);
    return;
  }
  if (isReservedWord(name)) {
    errors.at(describe(`type argument '${name}' for @dgraph directive is a reserved keyword`), directive);
    return;
  }
  // Interfaces are not stored: their objects live in the collections of the types implementing them.
  if (draft.kind === 'type' && name !== draft.name) draft.storedName = storedNameOf(name);
}

/** Reads `@dgraph(pred:)` of a field; returns the Dgraph predicate the field stands for (`Type.field` without one). */
function readFieldStorageName(draft: TypeDraft, field: FieldDraft, errors: ErrorSink): PredicateField {
  const { model } = field;
  const standing: PredicateField = { model, predicate: `${field.origin}.${model.name}` };
  const directive = field.directives.get('dgraph');
  if (!directive) return standing;
  const describe: Describe = (message) => fieldMessage(draft.name, field.model.name, message);
  if (model.isIdField) {
    errors.at(describe('@dgraph(pred:) cannot stand on the ID field: its value is the object\'s identity (stored as _id)'), directive);
    return standing;
  }
  if (model.lambda || model.custom) {
    errors.at(describe(`@dgraph cannot be combined with ${model.lambda ? '@lambda' : '@custom'}: the field is computed, not stored`), directive);
    return standing;
  }
  const written = nameArgument(directive, 'pred', errors, describe);
  if (written === undefined) return standing;
  // Dgraph also accepts a predicate in DQL's angle brackets: `<Post.title>`, `<~Post.author>`.
  const predicate = /^<.+>$/.test(written) ? written.slice(1, -1) : written;
  if (predicate.startsWith(REVERSE_MARK)) {
    const forward = predicate.slice(REVERSE_MARK.length);
    if (forward === '') errors.at(describe('@dgraph(pred: "~") names no forward predicate'), directive);
    else model.reversePredicate = forward;
    return { model, predicate };
  }
  if (predicate.startsWith('_')) {
    errors.at(describe(`@dgraph(pred: ${JSON.stringify(predicate)}): names starting with "_" are reserved for the service's own stored fields`), directive);
    return standing;
  }
  if (isReservedWord(predicate)) {
    errors.at(describe(`pred argument '${predicate}' for @dgraph directive is a reserved keyword`), directive);
    return standing;
  }
  if (predicate.includes('@')) return readLanguageField(predicate, field, directive, errors, describe) ?? standing;
  if (predicate !== model.name) model.storedName = storedNameOf(predicate);
  return { model, predicate };
}

/** A language-tagged predicate: one language is stored under the predicate with its tag; a preference stores nothing. */
function readLanguageField(written: string, field: FieldDraft, directive: DirectiveNode, errors: ErrorSink, describe: Describe): PredicateField | undefined {
  const language = readLanguagePredicate(written, field, directive, errors, describe);
  if (!language) return undefined;
  const [tag] = language.tags;
  if (language.tags.length === 1 && tag !== '.') field.model.storedName = storedNameOf(taggedName(language.predicate, tag!));
  else field.model.languagePreference = { paths: [], multiLanguage: isMultiLanguage(language) };
  return { model: field.model, predicate: language.predicate, language };
}

/** The stored paths each preference field of `draft` reads, from the languages its other fields store. */
function readPreferencePaths(draft: TypeDraft, predicates: ReadonlyMap<FieldModel, PredicateField>): void {
  const fields = draft.fields.flatMap((field) => predicates.get(field.model) ?? []).filter((field) => field.model.of.kind !== 'relation' && !field.model.isIdField);
  for (const field of fields) {
    const preference = field.model.languagePreference;
    if (preference && field.language) preference.paths = preferencePaths(field.language, fields, (model) => model.storedName ?? model.name, storedNameOf);
  }
}

/** An inherited field is a copy of the interface's model made before `@dgraph` was read: give it the interface's names. */
function copyInheritedStorageName(field: FieldDraft, drafts: ReadonlyMap<string, TypeDraft>): void {
  const source = drafts.get(field.origin)?.fieldsByName.get(field.model.name)?.model;
  if (source?.storedName !== undefined) field.model.storedName = source.storedName;
  if (source?.reversePredicate !== undefined) field.model.reversePredicate = source.reversePredicate;
  // The paths are the implementing type's own: read from its fields (readPreferencePaths).
  if (source?.languagePreference) field.model.languagePreference = { paths: [], multiLanguage: source.languagePreference.multiLanguage };
}

/** `@dgraph(type:)` on a type or `@dgraph(pred:)` on a field: the one argument each place takes, a non-empty string. */
function nameArgument(directive: DirectiveNode, argumentName: 'type' | 'pred', errors: ErrorSink, describe: Describe): string | undefined {
  const argument = directiveArguments(directive, { allowed: [argumentName], required: [argumentName] }, errors, describe).get(argumentName);
  if (!argument) return undefined;
  const value = stringValueOf(argument.value);
  if (value === undefined) {
    errors.at(describe(`@dgraph(${argumentName}:) must be a string, found ${describeValue(argument.value)}`), argument.value);
    return undefined;
  }
  if (value.trim() === '') {
    errors.at(describe(`@dgraph(${argumentName}:) should not be empty`), argument.value);
    return undefined;
  }
  return value;
}

function checkCollectionsAreDistinct(drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  const byCollection = new Map<string, TypeDraft>();
  for (const draft of drafts.values()) {
    if (draft.kind !== 'type') continue;
    const collection = draft.storedName ?? draft.name;
    const earlier = byCollection.get(collection);
    if (!earlier) {
      byCollection.set(collection, draft);
      continue;
    }
    const [first, second] = [earlier, draft].sort((a, b) => (a.storedName ? 1 : 0) - (b.storedName ? 1 : 0));
    errors.at(
      typeMessage(second!.name, `is stored in the collection ${JSON.stringify(writtenNameOf(collection))}, which type ${first!.name} already uses`),
      second!.directives.dgraph ?? second!.declaration.node.name,
    );
  }
}

/** Two fields of one type stored under one name would overwrite each other's values. */
function checkStoredFieldsAreDistinct(draft: TypeDraft, errors: ErrorSink): void {
  const byStoredName = new Map<string, FieldDraft>();
  for (const field of draft.fields) {
    const { model } = field;
    if (model.isIdField || model.lambda || model.custom || model.reversePredicate !== undefined || model.languagePreference) continue;
    const stored = model.storedName ?? model.name;
    const earlier = byStoredName.get(stored);
    if (!earlier) {
      byStoredName.set(stored, field);
      continue;
    }
    errors.at(
      fieldMessage(draft.name, model.name, `is stored under ${JSON.stringify(writtenNameOf(stored))}, as is field ${earlier.model.name}; each field needs its own stored name`),
      field.directives.get('dgraph') ?? earlier.directives.get('dgraph') ?? field.node.name,
    );
  }
}
