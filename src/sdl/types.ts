import type { NamedTypeNode } from 'graphql';
import type { ObjectDeclaration } from './declarations.js';
import { typeMessage, type ErrorSink } from './errors.js';
import type { FederationLink } from './federation-link.js';
import { fieldDraftOf, type FieldDraft, type NameKind } from './fields.js';
import type { SecretField } from './model.js';
import { typeDirectivesOf, type TypeDirectives } from './type-directives.js';

/** A user type or interface while it is being checked; becomes a `TypeModel` once the schema is valid. */
export interface TypeDraft {
  declaration: ObjectDeclaration;
  name: string;
  kind: 'type' | 'interface';
  directives: TypeDirectives;
  implements: string[];
  /** The fields the definition itself declares. */
  ownFields: FieldDraft[];
  /** All fields: inherited interface fields first, then the type's own (set by `inheritInterfaceFields`). */
  fields: FieldDraft[];
  fieldsByName: Map<string, FieldDraft>;
  /** `@dgraph(type:)`, set by sdl/storage-names.ts. */
  storedName?: string;
  /** `@secret`, set by sdl/secret.ts. */
  secret?: SecretField;
}

export function typeDraftOf(
  declaration: ObjectDeclaration,
  kindOf: (name: string) => NameKind | undefined,
  link: FederationLink,
  errors: ErrorSink,
): TypeDraft {
  const { name, node } = declaration;
  const describe = (message: string): string => typeMessage(name, message);
  const directives = typeDirectivesOf(declaration, link, errors, describe);

  const ownFields: FieldDraft[] = [];
  const byName = new Map<string, FieldDraft>();
  for (const fieldNode of node.fields ?? []) {
    const draft = fieldDraftOf(fieldNode, { owner: name, position: 'type', kindOf, link }, errors);
    const earlier = byName.get(draft.model.name);
    if (earlier) {
      errors.at(typeMessage(name, `field ${draft.model.name} is declared more than once`), earlier.node.name, fieldNode.name);
      continue;
    }
    byName.set(draft.model.name, draft);
    ownFields.push(draft);
  }
  if ((node.fields ?? []).length === 0) errors.at(describe('a type needs at least one field'), node.name);

  return {
    declaration,
    name,
    kind: declaration.kind,
    directives,
    implements: implementedInterfaces(name, node.interfaces ?? [], kindOf, errors),
    ownFields,
    fields: ownFields,
    fieldsByName: byName,
  };
}

function implementedInterfaces(
  typeName: string,
  nodes: readonly NamedTypeNode[],
  kindOf: (name: string) => NameKind | undefined,
  errors: ErrorSink,
): string[] {
  const names: string[] = [];
  for (const node of nodes) {
    const name = node.name.value;
    const kind = kindOf(name);
    if (kind === undefined) errors.at(typeMessage(typeName, `implements unknown interface ${name}`), node);
    else if (kind === 'remote') errors.at(typeMessage(typeName, `without @remote directive can't implement an interface ${name}, which has the @remote directive`), node);
    else if (kind !== 'interface') errors.at(typeMessage(typeName, `implements ${name}, which is not an interface`), node);
    else if (names.includes(name)) errors.at(typeMessage(typeName, `implements ${name} more than once`), node);
    else names.push(name);
  }
  return names;
}

/** A type has at most one `ID` field: its value is the object's identity (`_id`). */
export function checkSingleIdField(draft: TypeDraft, errors: ErrorSink): void {
  const idFields = draft.fields.filter((field) => field.model.isIdField);
  if (idFields.length > 1) {
    errors.at(
      typeMessage(draft.name, `more than one ID field (${idFields.map((field) => field.model.name).join(', ')}); a type can have only one`),
      ...idFields.map((field) => field.node.name),
    );
  }
}
