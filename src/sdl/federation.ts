import { fieldMessage, typeMessage, type ErrorSink } from './errors.js';
import type { FieldDraft } from './fields.js';
import type { TypeDraft } from './types.js';

/**
 * Federation v1 rules: one `@key` with one field that is the `ID` or an `@id` field; extended types need a
 * key; `@external` only on extended types; `@provides` on a field whose type is an entity, naming fields of
 * that type; `@requires` on fields of extended types, naming `@external` fields of the same type.
 */
export function checkFederation(drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  for (const draft of drafts.values()) {
    checkKey(draft, errors);
    for (const field of draft.fields) {
      if (field.origin !== draft.name) continue;
      checkExternal(draft, field, errors);
      checkProvides(draft, field, drafts, errors);
      checkRequires(draft, field, errors);
    }
  }
}

function checkKey(draft: TypeDraft, errors: ErrorSink): void {
  const { key, extended } = draft.directives;
  if (!key) {
    if (extended) {
      errors.at(typeMessage(draft.name, 'an extended type needs @key(fields: "...") naming the field that identifies it'), draft.declaration.node.name);
    }
    return;
  }
  const field = draft.fieldsByName.get(key.field);
  if (!field) {
    errors.at(typeMessage(draft.name, `@key(fields: "${key.field}"): the type has no field ${key.field}`), key.directive);
  } else if (!field.model.isIdField && !field.model.isUniqueId) {
    errors.at(typeMessage(draft.name, `@key(fields: "${key.field}"): the key field must have type ID or carry @id; ${key.field} is ${field.model.typeText}`), key.directive);
  }
}

function checkExternal(draft: TypeDraft, field: FieldDraft, errors: ErrorSink): void {
  const directive = field.directives.get('external');
  if (directive && !draft.directives.extended) {
    errors.at(
      fieldMessage(draft.name, field.model.name, '@external is allowed only on extended types (`@extends` or `extend type`)'),
      directive,
    );
  }
}

function checkProvides(draft: TypeDraft, field: FieldDraft, drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  const directive = field.directives.get('provides');
  const provided = field.model.provides;
  if (!directive || !provided) return;
  const describe = (message: string): string => fieldMessage(draft.name, field.model.name, message);
  const target = field.model.of.kind === 'relation' ? drafts.get(field.model.of.target) : undefined;
  if (!target || !target.directives.key) {
    errors.at(describe(`@provides applies to a field whose type is an entity (a type with @key); ${field.model.namedType} is not one`), directive);
    return;
  }
  for (const name of provided) {
    if (!target.fieldsByName.has(name)) errors.at(describe(`@provides(fields:) names ${name}, but type ${target.name} has no field ${name}`), directive);
  }
}

function checkRequires(draft: TypeDraft, field: FieldDraft, errors: ErrorSink): void {
  const directive = field.directives.get('requires');
  const required = field.model.requires;
  if (!directive || !required) return;
  const describe = (message: string): string => fieldMessage(draft.name, field.model.name, message);
  if (!draft.directives.extended) {
    errors.at(describe('@requires is allowed only on fields of extended types (`@extends` or `extend type`)'), directive);
    return;
  }
  for (const name of required) {
    const requiredField = draft.fieldsByName.get(name);
    if (!requiredField) errors.at(describe(`@requires(fields:) names ${name}, but type ${draft.name} has no field ${name}`), directive);
    else if (!requiredField.model.external) errors.at(describe(`@requires(fields:) names ${name}, which is not @external`), directive);
  }
}
