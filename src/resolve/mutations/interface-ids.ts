import { GraphQLError } from 'graphql';
import { ErrorCode } from '../../errors/codes.js';
import { storedPath } from '../../query/schema-facts.js';
import { concreteTypesOf, isKeptHere } from '../../sdl/facts.js';
import type { SchemaModel, TypeModel } from '../../sdl/model.js';
import type { Store, Transaction } from '../../store/port.js';
import type { Write } from './objects.js';

/**
 * `@id(interface: true)`: a value of the field is unique across every type implementing the interface,
 * not only within the object's own type (which the type's unique index already enforces). Before an
 * object of a type takes such a value, the other implementing types are asked, in the mutation's
 * transaction, whether one of their objects holds it.
 *
 * The answers are kept for the rest of the mutation, so the store is asked once per value: `interface.field`
 * → value → the type holding it ('' when none does). An add reads them ahead for all its inputs, with one
 * `$in` query per implementing type and field, so a large add costs no query per input. A value taken by
 * this mutation becomes held by the taking type, and is claimed (see interface-id-claims.ts).
 */
export type InterfaceIdHolders = Map<string, Map<unknown, string>>;

export interface InterfaceIds {
  holders: InterfaceIdHolders;
  /** Claim keys (`interface.field` and the value) of the values this mutation gives to objects. */
  claimed: Set<string>;
}

type Input = Record<string, unknown>;

const isObject = (value: unknown): value is Input => typeof value === 'object' && value !== null && !Array.isArray(value);

function uniqueAcrossFields(type: TypeModel) {
  return type.fields.filter((field) => field.uniqueAcrossInterface !== undefined);
}

/** Whether the type has a field whose values are unique across its interface (most have none: nothing to check). */
export function hasInterfaceUniqueIds(type: TypeModel): boolean {
  return type.fields.some((field) => field.uniqueAcrossInterface !== undefined);
}

function holdersOf(holders: InterfaceIdHolders, interfaceName: string, field: string): Map<unknown, string> {
  const key = `${interfaceName}.${field}`;
  let byValue = holders.get(key);
  if (!byValue) {
    byValue = new Map();
    holders.set(key, byValue);
  }
  return byValue;
}

/** Where `type` stores its copy of the interface field `fieldName` (`@dgraph(pred:)` may name it otherwise). */
function storedPathIn(type: TypeModel, fieldName: string): string {
  const field = type.fieldsByName.get(fieldName);
  return field ? storedPath(field) : fieldName;
}

/** `values` are the object's stored values (keyed by stored name), as the insert or update writes them. */
export async function checkInterfaceUniqueIds(write: Write, type: TypeModel, values: Readonly<Input>): Promise<void> {
  write.interfaceIds ??= { holders: new Map(), claimed: new Set() };
  for (const field of uniqueAcrossFields(type)) {
    const interfaceName = field.uniqueAcrossInterface!;
    const value = values[storedPath(field)];
    if (value === undefined || value === null) continue;
    const holders = holdersOf(write.interfaceIds.holders, interfaceName, field.name);
    let holder = holders.get(value);
    if (holder === undefined) holder = await holderOf(write.model, write.store, write.tx, interfaceName, field.name, value, type.name);
    if (holder !== '' && holder !== type.name) throw interfaceDuplicateError(interfaceName, field.name, value);
    holders.set(value, type.name);
    write.interfaceIds.claimed.add(claimKey(interfaceName, field.name, value));
  }
}

/** The implementing type other than `except` whose objects hold `value`, or ''. */
async function holderOf(model: SchemaModel, store: Store, tx: Transaction, interfaceName: string, field: string, value: unknown, except: string): Promise<string> {
  for (const other of concreteTypesOf(model, interfaceName)) {
    if (other.name === except) continue;
    const [found] = await store.collection(other.name).find({ [storedPathIn(other, field)]: value }, { limit: 1, projection: { _id: 1 } }, { tx });
    if (found) return other.name;
  }
  return '';
}

function collect(model: SchemaModel, typeName: string, input: Input, wanted: Map<string, Set<unknown>>): void {
  const type = model.types.get(typeName);
  if (!type || type.kind !== 'type') return;
  for (const field of uniqueAcrossFields(type)) {
    const value = input[field.name];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const key = `${field.uniqueAcrossInterface}.${field.name}`;
    const values = wanted.get(key) ?? new Set<unknown>();
    wanted.set(key, values);
    values.add(value);
  }
  for (const field of type.fields) {
    if (field.of.kind !== 'relation' || !isKeptHere(model, type, field)) continue;
    const value = input[field.name];
    for (const ref of Array.isArray(value) ? value : [value]) {
      if (isObject(ref)) collect(model, field.of.target, ref, wanted);
    }
  }
}

function claimKey(interfaceName: string, field: string, value: unknown): string {
  return `${interfaceName}.${field}:${JSON.stringify(value)}`;
}

const interfaceIdsByModel = new WeakMap<SchemaModel, boolean>();

/** Whether some type of the model has an `@id(interface: true)` field (when none has, an add's inputs need no walk). */
function modelHasInterfaceIds(model: SchemaModel): boolean {
  let has = interfaceIdsByModel.get(model);
  if (has === undefined) interfaceIdsByModel.set(model, (has = [...model.types.values()].some(hasInterfaceUniqueIds)));
  return has;
}

/** The holders of every `@id(interface: true)` value an add's inputs (nested ones included) mention. */
export async function readAheadInterfaceIds(model: SchemaModel, store: Store, tx: Transaction, typeName: string, inputs: readonly Input[]): Promise<InterfaceIds> {
  const wanted = new Map<string, Set<unknown>>();
  if (modelHasInterfaceIds(model)) for (const input of inputs) collect(model, typeName, input, wanted);
  const holders: InterfaceIdHolders = new Map();
  for (const [key, values] of wanted) {
    const [interfaceName, field] = key.split('.') as [string, string];
    const byValue = new Map<unknown, string>([...values].map((value) => [value, '']));
    for (const type of concreteTypesOf(model, interfaceName)) {
      const path = storedPathIn(type, field);
      const found = await store.collection(type.name).find({ [path]: { $in: [...values] } }, { projection: { [path]: 1 } }, { tx });
      for (const document of found) byValue.set(document[path], type.name);
    }
    holders.set(key, byValue);
  }
  return { holders, claimed: new Set() };
}

/** Dgraph's wording, so clients moving over keep matching on it. */
function interfaceDuplicateError(interfaceName: string, field: string, value: unknown): GraphQLError {
  return new GraphQLError(`id ${String(value)} already exists for field ${field} in some other implementing type of interface ${interfaceName}`, {
    extensions: { code: ErrorCode.DUPLICATE_ID, interface: interfaceName, field, value },
  });
}
