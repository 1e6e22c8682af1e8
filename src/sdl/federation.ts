import { fieldMessage, typeMessage, type ErrorSink } from './errors.js';
import type { FieldDraft } from './fields.js';
import type { FieldSelection } from './model.js';
import type { KeyDirective } from './type-directives.js';
import type { TypeDraft } from './types.js';

/**
 * Federation rules. Federation 1: one `@key` with one field that is the `ID` or an `@id` field. Federation 2:
 * any number of keys, each a selection of fields of the type kept here (scalars, enums, or a stored
 * relation selecting the target's `ID`). Both: an extended type needs a key of one `ID`/`@id` field (its
 * identity here); `@external` only on extended types; `@provides` on a field whose type is an entity,
 * naming fields of that type; `@requires` on fields of extended types, naming `@external` fields of the
 * same type. Federation 2 also: a field returning an `@inaccessible` type is `@inaccessible` itself, and
 * an `@external` field is used by a key, a `@requires` or a `@provides` (composition refuses it otherwise).
 */
export function checkFederation(drafts: ReadonlyMap<string, TypeDraft>, version: 1 | 2, errors: ErrorSink): void {
  for (const draft of drafts.values()) {
    if (version === 1) checkFederation1Key(draft, errors);
    else {
      checkFederation2Keys(draft, drafts, errors);
      checkExternalIsUsed(draft, drafts, errors);
    }
    for (const field of draft.fields) {
      if (field.origin !== draft.name) continue;
      checkExternal(draft, field, version, errors);
      checkProvides(draft, field, drafts, errors);
      checkRequires(draft, field, errors);
      checkInaccessibleTarget(draft, field, drafts, errors);
    }
  }
}

/** The key that identifies the type's stored objects: the first `@key` of one field that is the `ID` or an `@id` field. */
export function identityKeyOf(draft: TypeDraft): string | undefined {
  for (const key of draft.directives.keys) {
    const [only, ...others] = key.selection;
    if (!only || others.length > 0 || only.selections) continue;
    const field = draft.fieldsByName.get(only.name);
    if (field && (field.model.isIdField || field.model.isUniqueId)) return only.name;
  }
  return undefined;
}

function checkFederation1Key(draft: TypeDraft, errors: ErrorSink): void {
  const [key] = draft.directives.keys;
  if (!key) {
    reportMissingKey(draft, errors);
    return;
  }
  const name = key.selection[0]!.name;
  const field = draft.fieldsByName.get(name);
  if (!field) {
    errors.at(typeMessage(draft.name, `@key(fields: "${name}"): the type has no field ${name}`), key.directive);
  } else if (!field.model.isIdField && !field.model.isUniqueId) {
    errors.at(typeMessage(draft.name, `@key(fields: "${name}"): the key field must have type ID or carry @id; ${name} is ${field.model.typeText}`), key.directive);
  }
}

function reportMissingKey(draft: TypeDraft, errors: ErrorSink): void {
  if (draft.directives.extended) {
    errors.at(typeMessage(draft.name, 'an extended type needs @key(fields: "...") naming the field that identifies it'), draft.declaration.node.name);
  } else if (draft.directives.interfaceObject) {
    errors.at(typeMessage(draft.name, '@interfaceObject needs @key(fields: "...") naming the field that identifies the interface\'s objects'), draft.directives.interfaceObject);
  }
}

function checkFederation2Keys(draft: TypeDraft, drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  const { keys } = draft.directives;
  if (keys.length === 0) {
    reportMissingKey(draft, errors);
    return;
  }
  const owner = draft.directives.extended || draft.directives.interfaceObject !== undefined ? 'elsewhere' : 'here';
  const seen = new Set<string>();
  for (const key of keys) {
    const describe = (message: string): string => typeMessage(draft.name, `@key(fields: "${key.text}"): ${message}`);
    if (seen.has(key.text)) errors.at(describe('the key is declared twice'), key.directive);
    seen.add(key.text);
    checkKeySelection(draft, key, key.selection, drafts, errors, describe);
  }
  if (owner === 'elsewhere' && identityKeyOf(draft) === undefined) {
    errors.at(
      typeMessage(draft.name, 'a type owned by another service needs a @key of one field that is its ID or an @id field: that value identifies its objects here'),
      keys[0]!.directive,
    );
  }
}

function checkKeySelection(
  draft: TypeDraft,
  key: KeyDirective,
  selection: readonly FieldSelection[],
  drafts: ReadonlyMap<string, TypeDraft>,
  errors: ErrorSink,
  describe: (message: string) => string,
): void {
  for (const item of selection) {
    const field = draft.fieldsByName.get(item.name);
    if (!field) {
      errors.at(describe(`the type has no field ${item.name}`), key.directive);
      continue;
    }
    const model = field.model;
    if (model.list) errors.at(describe(`${item.name} is a list (${model.typeText}); key fields hold one value`), key.directive);
    else if (model.lambda || model.custom) errors.at(describe(`${item.name} is computed by @lambda/@custom; key fields are stored`), key.directive);
    else if (model.of.kind !== 'relation') {
      if (item.selections) errors.at(describe(`${item.name} is a ${model.namedType}, which has no fields to select`), key.directive);
      else if (model.external && !model.isIdField && !model.isUniqueId && key.resolvable) {
        errors.at(describe(`${item.name} is @external, so this service cannot find objects by it; declare the key with resolvable: false`), key.directive);
      }
    } else {
      checkRelationKeyPart(model.of.target, item, field, key, drafts, errors, describe);
    }
  }
}

/** A relation in a key selects the target's `ID` (`variation { id }`): the stored relation holds that value. */
function checkRelationKeyPart(
  targetName: string,
  item: FieldSelection,
  field: FieldDraft,
  key: KeyDirective,
  drafts: ReadonlyMap<string, TypeDraft>,
  errors: ErrorSink,
  describe: (message: string) => string,
): void {
  const target = drafts.get(targetName);
  const idName = target?.fields.find((candidate) => candidate.model.isIdField)?.model.name;
  const [only, ...others] = item.selections ?? [];
  if (!only) {
    errors.at(describe(`${item.name} is a relation to ${targetName}; select its ID field (${item.name} { ${idName ?? 'id'} })`), key.directive);
  } else if (!idName || only.name !== idName || others.length > 0 || only.selections) {
    errors.at(describe(`${item.name} { ... } may select only the ID field of ${targetName}${idName ? ` (${idName})` : ', which has none'}`), key.directive);
  } else if (field.model.storedHere === false) {
    errors.at(describe(`${item.name} is the derived side of @hasInverse; a key may use only the side that stores the relation`), key.directive);
  }
}

function checkExternal(draft: TypeDraft, field: FieldDraft, version: 1 | 2, errors: ErrorSink): void {
  const directive = field.directives.get('external');
  if (directive && !draft.directives.extended && !draft.directives.interfaceObject) {
    // Federation 2 lets a plain `type` share an entity; Autograph still needs to be told another service creates its objects.
    const hint = version === 2 ? '; in Federation 2 too, a type whose objects another service creates is declared that way' : '';
    errors.at(
      fieldMessage(draft.name, field.model.name, `@external is allowed only on extended types (\`@extends\` or \`extend type\`)${hint}`),
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
  if (!target || target.directives.keys.length === 0) {
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

function checkInaccessibleTarget(draft: TypeDraft, field: FieldDraft, drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  if (field.model.of.kind !== 'relation' || field.model.marks?.inaccessible) return;
  const target = drafts.get(field.model.of.target);
  if (target?.directives.marks?.inaccessible && !draft.directives.marks?.inaccessible) {
    errors.at(
      fieldMessage(draft.name, field.model.name, `its type ${target.name} is @inaccessible, so the field must be @inaccessible too`),
      field.node.name,
    );
  }
}

function checkExternalIsUsed(draft: TypeDraft, drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  // On other types @external is an error of its own (checkExternal).
  if (!draft.directives.extended && !draft.directives.interfaceObject) return;
  const used = new Set(draft.directives.keys.flatMap((key) => key.selection.map((item) => item.name)));
  for (const field of draft.fields) field.model.requires?.forEach((name) => used.add(name));
  for (const other of drafts.values()) {
    for (const field of other.fields) {
      if (field.model.of.kind === 'relation' && field.model.of.target === draft.name) field.model.provides?.forEach((name) => used.add(name));
    }
  }
  for (const field of draft.fields) {
    const directive = field.directives.get('external');
    if (directive && field.origin === draft.name && !used.has(field.model.name)) {
      errors.at(
        fieldMessage(draft.name, field.model.name, '@external, but no @key, @requires or @provides uses it; remove the field or the directive'),
        directive,
      );
    }
  }
}
