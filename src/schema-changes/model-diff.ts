import type { FieldModel, SchemaModel } from '../sdl/model.js';

/** A field as the report names it: `Task.title` with its declared type `String!`. */
export interface FieldEntry {
  type: string;
  field: string;
  typeText: string;
}

export interface RetypedField {
  type: string;
  field: string;
  from: string;
  to: string;
}

/** What changes between two user schemas, type by type and field by field (GraphQL names, as written). */
export interface ModelDiff {
  /** Object types, interfaces and enums. */
  typesAdded: string[];
  typesRemoved: string[];
  /** Fields of types both schemas have. */
  fieldsAdded: FieldEntry[];
  fieldsRemoved: FieldEntry[];
  /** Declared type changed, nullability included (`String` → `String!`, `Int` → `[Int]`). */
  fieldsRetyped: RetypedField[];
}

/** Compares the user schemas; with no previous one, every type is added. Pure. */
export function diffModels(previous: SchemaModel | undefined, next: SchemaModel): ModelDiff {
  const before = namedTypes(previous);
  const after = namedTypes(next);
  const diff: ModelDiff = {
    typesAdded: [...after.keys()].filter((name) => !before.has(name)),
    typesRemoved: [...before.keys()].filter((name) => !after.has(name)),
    fieldsAdded: [],
    fieldsRemoved: [],
    fieldsRetyped: [],
  };
  for (const [name, type] of next.types) {
    const old = previous?.types.get(name);
    if (old !== undefined) diffFieldLists(name, old.fields, type.fields, diff);
  }
  if (previous !== undefined) {
    diffFieldLists('Query', previous.customQueries, next.customQueries, diff);
    diffFieldLists('Mutation', previous.customMutations, next.customMutations, diff);
  }
  return diff;
}

function diffFieldLists(typeName: string, oldFields: readonly FieldModel[], newFields: readonly FieldModel[], diff: ModelDiff): void {
  const oldByName = new Map(oldFields.map((field) => [field.name, field]));
  const newNames = new Set(newFields.map((field) => field.name));
  for (const field of newFields) {
    const old = oldByName.get(field.name);
    if (old === undefined) diff.fieldsAdded.push({ type: typeName, field: field.name, typeText: field.typeText });
    else if (old.typeText !== field.typeText) diff.fieldsRetyped.push({ type: typeName, field: field.name, from: old.typeText, to: field.typeText });
  }
  for (const old of oldFields) {
    if (!newNames.has(old.name)) diff.fieldsRemoved.push({ type: typeName, field: old.name, typeText: old.typeText });
  }
}

/** Object types, interfaces and enums by name, each with what kind of type it is. */
function namedTypes(model: SchemaModel | undefined): Map<string, string> {
  const names = new Map<string, string>();
  if (model === undefined) return names;
  for (const type of model.types.values()) names.set(type.name, type.kind);
  for (const enumModel of model.enums.values()) names.set(enumModel.name, 'enum');
  return names;
}
