import { print } from 'graphql';
import { fieldMessage, type ErrorSink } from './errors.js';
import type { FieldDraft } from './fields.js';
import type { TypeDraft } from './types.js';

/**
 * Gives a type the fields of the interfaces it implements (Dgraph lets the type leave them out), in
 * Dgraph's order: each interface's omitted fields go before those already there, so the last interface's
 * come first, then the type's own fields, a redeclared inherited field keeping its place. A type may
 * redeclare an inherited field with the same type; a different type, or
 * different directives, is an error, as are two interfaces declaring one field (Dgraph allows that for
 * the ID field alone, of one type in both).
 */
export function inheritInterfaceFields(draft: TypeDraft, drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  if (draft.implements.length === 0) return;
  const inherited = new Map<string, FieldDraft>();
  for (const interfaceName of draft.implements) {
    const source = drafts.get(interfaceName);
    if (!source) continue;
    for (const field of source.ownFields) {
      const earlier = inherited.get(field.model.name);
      if (!earlier) {
        inherited.set(field.model.name, { ...field, model: { ...field.model, inheritedFrom: interfaceName } });
      } else if (field.model.namedType !== 'ID' || earlier.model.namedType !== 'ID') {
        // Dgraph copies each interface's fields into the type: only an ID field may come from two of them.
        errors.at(`Field ${draft.name}.${field.model.name} can only be defined once.`, earlier.node.name, field.node.name);
      } else if (earlier.model.typeText !== field.model.typeText) {
        errors.at(
          fieldMessage(draft.name, field.model.name,
            `is of type ${field.model.typeText} in interface ${interfaceName} and is of type ${earlier.model.typeText} in interface ${earlier.origin}`),
          draft.declaration.node.name,
        );
      }
    }
  }

  for (const field of draft.ownFields) {
    const inheritedField = inherited.get(field.model.name);
    if (!inheritedField) continue;
    const from = inheritedField.origin;
    if (inheritedField.model.typeText !== field.model.typeText) {
      errors.at(
        fieldMessage(draft.name, field.model.name,
          `redeclares ${field.model.name} of interface ${from} as ${field.model.typeText}; the interface declares ${inheritedField.model.typeText}`),
        field.node.type,
      );
    } else if (directivesText(field) !== '' && directivesText(field) !== directivesText(inheritedField)) {
      errors.at(
        fieldMessage(draft.name, field.model.name,
          `redeclares ${field.model.name} of interface ${from} with other directives; declare them on the interface`),
        field.node.name,
      );
    }
  }

  const redeclared = new Set(draft.ownFields.map((field) => field.model.name));
  const omitted = [...inherited.values()].filter((field) => !redeclared.has(field.model.name));
  const byInterface = draft.implements.map((name) => omitted.filter((field) => field.model.inheritedFrom === name));
  const ownInPlace = draft.ownFields.map((field) => inherited.get(field.model.name) ?? field);
  draft.fields = [...byInterface.reverse().flat(), ...ownInPlace];
  draft.fieldsByName = new Map(draft.fields.map((field) => [field.model.name, field]));
}

function directivesText(field: FieldDraft): string {
  return (field.node.directives ?? []).map((directive) => print(directive)).join(' ');
}
