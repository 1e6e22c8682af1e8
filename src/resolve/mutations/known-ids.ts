import type { FieldModel, SchemaModel, TypeModel } from '../../sdl/model.js';
import { relationFieldsOf } from './field-lists.js';
import type { Store, StoredDocument, Transaction } from '../../store/port.js';
import { storedPath } from '../../query/schema-facts.js';

/**
 * `@id` values read ahead for one add mutation. Every `@id` value its inputs and their nested refs
 * mention is looked up with one `$in` query per type and field, instead of one query per input object
 * (100 inputs referencing their users by `@id` cost 1 read, not 100). The answers stay true for the rest
 * of the mutation because they are kept current: a created object adds its values, and any update of an
 * object forgets its type's answers (an update may take or free a value), so later checks ask the store.
 *
 * type name → `@id` field → value → the object's id, or null when no object has the value.
 */
export type KnownIds = Map<string, Map<string, Map<unknown, string | null>>>;

import { memberRefOf } from './union-refs.js';

type Input = Record<string, unknown>;

const isObject = (value: unknown): value is Input => typeof value === 'object' && value !== null && !Array.isArray(value);

const uniqueFieldsByType = new WeakMap<TypeModel, readonly FieldModel[]>();

/** `@id` fields looked up by value (the `ID` field is `_id` and is looked up directly); listed once per type, as every input asks. */
function uniqueFields(type: TypeModel): readonly FieldModel[] {
  let fields = uniqueFieldsByType.get(type);
  if (!fields) uniqueFieldsByType.set(type, (fields = type.fields.filter((field) => field.isUniqueId && !field.isIdField)));
  return fields;
}

function collect(model: SchemaModel, typeName: string, input: Input, wanted: Map<string, Map<string, Set<unknown>>>): void {
  const type = model.types.get(typeName);
  // Interfaces are referenced by id only, and extended types by their key (`_id`): nothing to read ahead.
  if (!type || type.kind !== 'type' || type.extended) return;
  for (const field of uniqueFields(type)) {
    const value = input[field.name];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    let byField = wanted.get(type.name);
    if (!byField) wanted.set(type.name, (byField = new Map()));
    const path = storedPath(field);
    let values = byField.get(path);
    if (!values) byField.set(path, (values = new Set()));
    values.add(value);
  }
  for (const field of relationFieldsOf(model, type)) {
    const value = input[field.name];
    if (Array.isArray(value)) {
      for (const ref of value) collectRef(model, field, ref, wanted);
    } else {
      collectRef(model, field, value, wanted);
    }
  }
}

function collectRef(model: SchemaModel, field: FieldModel, ref: unknown, wanted: Map<string, Map<string, Set<unknown>>>): void {
  if (!isObject(ref) || field.of.kind !== 'relation') return;
  const named = memberRefOf(model, field.of.target, ref);
  collect(model, named.typeName, named.ref, wanted);
}

export async function readAheadUniqueIds(model: SchemaModel, store: Store, tx: Transaction, typeName: string, inputs: readonly Input[]): Promise<KnownIds> {
  const wanted = new Map<string, Map<string, Set<unknown>>>();
  for (const input of inputs) collect(model, typeName, input, wanted);
  const known: KnownIds = new Map();
  for (const [type, byField] of wanted) {
    const answers = new Map<string, Map<unknown, string | null>>();
    known.set(type, answers);
    for (const [field, values] of byField) {
      const found = await store.collection(type).find({ [field]: { $in: [...values] } }, { projection: { [field]: 1 } }, { tx });
      const byValue = new Map<unknown, string | null>([...values].map((value) => [value, null]));
      for (const document of found) byValue.set(document[field], document._id);
      answers.set(field, byValue);
    }
  }
  return known;
}

/** The id of the object with `value` in `field` (by stored name): a string, null if none has it, undefined if not read ahead. */
export function knownId(known: KnownIds | undefined, typeName: string, field: string, value: unknown): string | null | undefined {
  return known?.get(typeName)?.get(field)?.get(value);
}

/** A new object takes its `@id` values. */
export function rememberCreated(known: KnownIds | undefined, type: TypeModel, document: StoredDocument): void {
  const answers = known?.get(type.name);
  if (!answers) return;
  for (const field of uniqueFields(type)) {
    const value = document[storedPath(field)];
    if (value !== undefined && value !== null) answers.get(storedPath(field))?.set(value, document._id);
  }
}

/** An object of the type is being updated: its answers may no longer hold. */
export function forgetType(known: KnownIds | undefined, typeName: string): void {
  known?.delete(typeName);
}
