import { GraphQLError } from 'graphql';
import { ClientInputError, ErrorCode } from '../../errors/codes.js';
import { callerSuppliesId, concreteTypesOf, isKeptHere, isSymmetricRelation } from '../../sdl/facts.js';
import { searchFieldsFor } from '../../query/text-index.js';
import type { FieldModel, SchemaModel, TypeModel } from '../../sdl/model.js';
import { DuplicateKeyError, type StoredDocument, type Transaction } from '../../store/port.js';
import type { StagedStore } from '../../store/staged/staged-store.js';
import { linkEdge, unlinkEdge } from './edges.js';
import { checkExtendedKeyKept } from './extended-key.js';
import { valueFieldsOf, relationFieldsOf } from './field-lists.js';
import { givenId } from './given-id.js';
import { newObjectId } from './object-ids.js';
import { andThen, mapInOrder, type MaybePromise } from './in-order.js';
import type { ReferenceGuard } from './reference-guard.js';
import { checkInterfaceUniqueIds, hasInterfaceUniqueIds, type InterfaceIds } from './interface-ids.js';
import { forgetType, knownId, rememberCreated, type KnownIds } from './known-ids.js';
import { memberRefOf } from './union-refs.js';
import { storedPath } from '../../query/schema-facts.js';
import { withDefaultValues } from './default-values.js';
import { secretWrites } from './hashed-password.js';
import { checkNewObject } from './new-object-check.js';

/** Everything one mutation writes goes through one transaction; `created` counts new objects (numUids). */
export interface Write {
  model: SchemaModel;
  /**
   * The mutation's staged store (run.ts): it holds writes back, so a unique index refuses a duplicate only when
   * they are applied, and run.ts reports it for the type of its collection.
   */
  store: StagedStore;
  tx: Transaction;
  created: number;
  /** `@id` values an add read ahead in one query per field (see known-ids.ts); absent: ask the store each time. */
  known?: KnownIds;
  /** Ids of the objects created, per type (their `add` rules are checked before the transaction ends). */
  createdIds: Map<string, Set<string>>;
  /** The caller's rules for existing objects reached through the input (absent: no `@auth` to apply). */
  guard?: ReferenceGuard;
  /** Which type holds each `@id(interface: true)` value as far as this mutation has asked, and the values it gives (interface-ids.ts). */
  interfaceIds?: InterfaceIds;
  /** The mutation's time (`@default` `"$now"`), taken at its first use. */
  now?: string;
}

function nowOf(write: Write): () => string {
  return () => (write.now ??= new Date().toISOString());
}

type Input = Record<string, unknown>;

export function typeOf(model: SchemaModel, typeName: string): TypeModel {
  const type = model.types.get(typeName);
  if (!type) throw new GraphQLError(`Unknown type ${typeName}`);
  return type;
}

/** Dgraph's wording, so clients moving over keep matching on it. */
export function duplicateError(typeName: string, field: string, value: unknown): GraphQLError {
  return new GraphQLError(`id ${String(value)} already exists for field ${field} inside type ${typeName}`, {
    extensions: { code: ErrorCode.DUPLICATE_ID, type: typeName, field, value },
  });
}

function keyFieldName(type: TypeModel): string {
  return type.key ?? type.idField?.name ?? 'id';
}

/** Writes a DuplicateKeyError from the store as the GraphQL error a client expects. */
export function asDuplicateError(error: unknown, type: TypeModel): unknown {
  if (!(error instanceof DuplicateKeyError)) return error;
  const idName = callerSuppliesId(type) ? suppliedIdName(type) : keyFieldName(type);
  // The store names the field by its stored name (`@dgraph(pred:)`); the client knows the field's name.
  const fieldName = type.fields.find((field) => !field.isIdField && storedPath(field) === error.field)?.name ?? error.field;
  return duplicateError(type.name, error.field === '_id' ? idName : fieldName, error.value);
}

function relationFields(model: SchemaModel, type: TypeModel, input: Input): Array<[FieldModel, Input[]]> {
  const relations: Array<[FieldModel, Input[]]> = [];
  for (const field of relationFieldsOf(model, type)) {
    const value = input[field.name];
    if (value === undefined || value === null) continue;
    const refs = Array.isArray(value) ? value.filter((ref): ref is Input => ref !== null) : [value as Input];
    relations.push([field, refs]);
  }
  return relations;
}

/** Scalar and enum values of an input, ready to store, added to `set` (a `$set`, or a copy): nulls mean "remove". */
function scalarValues(model: SchemaModel, type: TypeModel, input: Input, set: Input = {}): { set: Input; unset: string[] } {
  const unset: string[] = [];
  // The values of searchable fields, from which the derived search fields are made (fields without
  // `@search` derive none).
  let searchable: Input | undefined;
  for (const field of valueFieldsOf(model, type)) {
    if (!(field.name in input)) continue;
    const value = input[field.name];
    if (field.search.length > 0) (searchable ??= {})[field.name] = value ?? null;
    if (value === null || value === undefined) unset.push(storedPath(field));
    else set[storedPath(field)] = value;
  }
  if (!searchable) return { set, unset };
  const derived = searchFieldsFor(type, searchable);
  for (const name of Object.keys(derived)) {
    const tokens = derived[name];
    if (tokens === undefined) unset.push(name);
    else set[name] = tokens;
  }
  return { set, unset };
}

/**
 * The values a new object stores (scalars, enums and the derived search fields), written into `document`:
 * what scalarValues sets, without the list of removals and the result objects, which a new object has no use for.
 */
function writeNewValues(model: SchemaModel, type: TypeModel, input: Input, document: StoredDocument): void {
  let searchable: Input | undefined;
  for (const field of valueFieldsOf(model, type)) {
    const value = input[field.name];
    if (value === undefined || value === null) continue;
    document[storedPath(field)] = value;
    if (field.search.length > 0) (searchable ??= {})[field.name] = value;
  }
  if (!searchable) return;
  const derived = searchFieldsFor(type, searchable);
  for (const name in derived) {
    const tokens = derived[name];
    if (tokens !== undefined) document[name] = tokens;
  }
}

/**
 * The object an input names by a value, and whether another of its `@id` values names a different object
 * (`ambiguous`: which object is meant cannot be told, refused as Dgraph refuses it; see `ambiguityError`).
 */
type Existing = { id: string; field: string; value: unknown; ambiguous: boolean };

/** Marks an answer findExisting must ask the store for. */
const ASK_STORE = Symbol('ask the store');

/**
 * findExisting's answer when the `@id` values read ahead (known-ids.ts) give it, with no store call and no
 * promise (an add of 100 objects asks this 200 times); ASK_STORE when a value was not read ahead or the
 * input names an `_id`.
 */
function existingFromKnown(write: Write, type: TypeModel, input: Input): Existing | undefined | typeof ASK_STORE {
  if (callerSuppliesId(type)) {
    const key = input[suppliedIdName(type)];
    if (key !== undefined && key !== null) return ASK_STORE;
    if (type.extended) return undefined;
  }
  let existing: Existing | undefined;
  for (const field of type.fields) {
    if (!field.isUniqueId || field.isIdField) continue;
    const value = input[field.name];
    if (value === undefined || value === null) continue;
    const known = knownId(write.known, type.name, storedPath(field), value);
    if (known === null) continue;
    if (known === undefined) return ASK_STORE;
    if (!existing) existing = { id: known, field: field.name, value, ambiguous: false };
    else if (known !== existing.id) existing.ambiguous = true;
  }
  return existing;
}

async function findExisting(write: Write, type: TypeModel, input: Input): Promise<Existing | undefined> {
  const known = existingFromKnown(write, type, input);
  if (known !== ASK_STORE) return known;
  const collection = write.store.collection(type.name);
  if (callerSuppliesId(type)) {
    const name = suppliedIdName(type);
    const key = input[name];
    if (key !== undefined && key !== null) {
      const [found] = await collection.find({ _id: String(key) }, { limit: 1 }, { tx: write.tx });
      if (found) return { id: found._id, field: name, value: key, ambiguous: false };
    }
    if (type.extended) return undefined;
  }
  let existing: Existing | undefined;
  for (const field of type.fields) {
    if (!field.isUniqueId || field.isIdField) continue;
    const value = input[field.name];
    if (value === undefined || value === null) continue;
    let id = knownId(write.known, type.name, storedPath(field), value);
    if (id === null) continue;
    if (id === undefined) {
      const [found] = await collection.find({ [storedPath(field)]: value }, { limit: 1 }, { tx: write.tx });
      if (!found) continue;
      id = found._id;
    }
    if (!existing) existing = { id, field: field.name, value, ambiguous: false };
    else if (id !== existing.id) existing.ambiguous = true;
  }
  return existing;
}

/** Dgraph's refusal of an input whose `@id` values name two different objects, where it would use the one named. */
function ambiguityError(): ClientInputError {
  return new ClientInputError('multiple nodes found for given xid values, updation not possible');
}

/** The object an input names, if it exists: without a promise when the read-ahead values answer (the common case). */
function existingOf(write: Write, type: TypeModel, input: Input): Existing | undefined | Promise<Existing | undefined> {
  const known = existingFromKnown(write, type, input);
  return known === ASK_STORE ? findExisting(write, type, input) : known;
}

/** The input field that names a new object's `_id`: an extended type's key, or an `ID` field with `@id`. */
function suppliedIdName(type: TypeModel): string {
  return type.extended ? keyFieldName(type) : type.idField!.name;
}

function newId(type: TypeModel, input: Input): string {
  if (!callerSuppliesId(type)) return newObjectId();
  const name = suppliedIdName(type);
  const key = input[name];
  if (key === undefined || key === null || key === '') {
    throw new ClientInputError(type.extended
      ? `${type.name} is owned by another service: give its key ${name} (the owner's id)`
      : `${type.name}.${name} is declared ID @id: give the new object's ${name}`);
  }
  return String(key);
}

/**
 * Creates an object from an Add input (nested objects included) and returns its id. With `upsert`, an
 * object with the same `@id` (or key) is updated instead. The id comes at once, without a promise, when
 * nothing needs a store read (the common case once known-ids.ts has read the `@id` values ahead); store
 * errors and refusals may then be thrown rather than rejected.
 */
export function createObject(write: Write, typeName: string, input: Input, upsert: boolean, via?: FieldModel): MaybePromise<string> {
  const type = typeOf(write.model, typeName);
  if (type.kind !== 'type') throw new ClientInputError(`${typeName} is an interface: add one of its implementing types`);
  return andThen(existingOf(write, type, input), (existing) => {
    if (!existing) return createNew(write, type, input, via);
    if (!upsert) throw duplicateError(type.name, existing.field, existing.value);
    if (existing.ambiguous) throw ambiguityError();
    return upsertExisting(write, type, input, existing.id);
  });
}

async function upsertExisting(write: Write, type: TypeModel, input: Input, id: string): Promise<string> {
  await write.guard?.requireUpdatable(type.name, id, `the upsert of ${type.name}`);
  await patchObject(write, type, id, input, {});
  return id;
}

/** Builds a new object: the one place a mutation makes one, so every new object passes checkNewObject. */
function createNew(write: Write, type: TypeModel, input: Input, via: FieldModel | undefined): MaybePromise<string> {
  const document: StoredDocument = { _id: newId(type, input) };
  const values = withDefaultValues(type, input, 'add', nowOf(write));
  checkNewObject(write.model, type, values, via);
  writeNewValues(write.model, type, values, document);
  if (type.secret) Object.assign(document, secretWrites(type, input).set);
  if (hasInterfaceUniqueIds(type)) {
    // The values the object takes, without its `_id` and secret (a copy, only for the types that need it).
    const { set } = scalarValues(write.model, type, values);
    return checkInterfaceUniqueIds(write, type, set).then(() => createWithRelations(write, type, input, document));
  }
  return createWithRelations(write, type, input, document);
}

/** Resolves the input's Refs in order (creating nested objects), then writes the new object. */
function createWithRelations(write: Write, type: TypeModel, input: Input, document: StoredDocument): MaybePromise<string> {
  const relations = relationFields(write.model, type, input);
  if (relations.length === 0) return insertCreated(write, type, document, relations, []);
  const targets = mapInOrder(relations, ([field, refs]) => mapInOrder(refs, (ref) => resolveRef(write, field, ref)));
  return andThen(targets, (targetIds) => insertCreated(write, type, document, relations, targetIds));
}

/** `targetIds[i]`: the ids the Refs of `relations[i]` resolved to. */
function insertCreated(write: Write, type: TypeModel, document: StoredDocument, relations: Array<[FieldModel, Input[]]>, targetIds: string[][]): MaybePromise<string> {
  const id = document._id;
  let deferredLinks: Array<[FieldModel, string]> | undefined;
  for (let index = 0; index < relations.length; index++) {
    const field = relations[index]![0];
    const ids = targetIds[index]!;
    // Edges that also touch other objects (a one-to-one holder, a symmetric field) are linked once this one exists.
    const linksElsewhere = isOneToOneHolder(write.model, field) || isSymmetricRelation(type.name, field);
    if (field.storedHere !== false && !linksElsewhere) {
      document[storedPath(field)] = field.list ? [...new Set(ids)] : ids[0];
    } else {
      for (const targetId of ids) (deferredLinks ??= []).push([field, targetId]);
    }
  }
  // The document was made here and is never changed after: the staged store keeps it without a copy.
  write.store.insertHandedOver(type.name, [document], { tx: write.tx });
  rememberCreated(write.known, type, document);
  write.created += 1;
  const createdOfType = write.createdIds.get(type.name);
  if (createdOfType) createdOfType.add(id);
  else write.createdIds.set(type.name, new Set([id]));
  return deferredLinks ? linkDeferred(write, type, id, deferredLinks) : id;
}

async function linkDeferred(write: Write, type: TypeModel, id: string, links: Array<[FieldModel, string]>): Promise<string> {
  for (const [field, targetId] of links) await linkEdge(write.model, write.store, write.tx, type.name, field, id, targetId, write.guard);
  return id;
}

function isOneToOneHolder(model: SchemaModel, field: FieldModel): boolean {
  if (field.list || !field.inverse) return false;
  const partner = model.types.get(field.inverse.type)?.fieldsByName.get(field.inverse.field);
  return partner !== undefined && !partner.list;
}

/**
 * A Ref input names an existing object (by its ID field, or by an `@id`/key value that exists) or describes a
 * new one to create. An existing object the caller may not see (its query rule) is treated as absent:
 * by `id` it is not found; by value, creating it anew fails as a duplicate, as an add of it would.
 */
export function resolveRef(write: Write, via: FieldModel, given: Input): string | Promise<string> {
  const { typeName: targetTypeName, ref } = memberRefOf(write.model, via.namedType, given);
  const candidates = concreteTypesOf(write.model, targetTypeName);
  const id = givenId(write.model, targetTypeName, ref);
  if (id !== undefined) return resolveRefById(write, via, targetTypeName, candidates, ref, id);
  const [type] = candidates;
  if (!type || candidates.length > 1 || write.model.types.get(targetTypeName)?.kind === 'interface') {
    throw new ClientInputError(`${targetTypeName}Ref: an interface can only reference an existing object by id`);
  }
  const answer = existingOf(write, type, ref);
  if (answer instanceof Promise) return answer.then((existing) => existingOrCreated(write, via, type, ref, existing));
  return existingOrCreated(write, via, type, ref, answer);
}

/** A Ref that names an `id`: the object of one of the candidate types, or (where the caller supplies ids) a new one. */
async function resolveRefById(write: Write, via: FieldModel, targetTypeName: string, candidates: TypeModel[], ref: Input, id: string): Promise<string> {
  for (const type of candidates) {
    const [found] = await write.store.collection(type.name).find({ _id: id }, { limit: 1 }, { tx: write.tx });
    if (found && await isVisible(write, type.name, found._id)) return found._id;
  }
  const target = write.model.types.get(targetTypeName);
  if (!target || !callerSuppliesId(target)) throw new ClientInputError(`${targetTypeName}Ref: no ${targetTypeName} with ${target?.idField?.name ?? 'id'} ${JSON.stringify(id)}`);
  const [type] = candidates;
  if (!type || candidates.length > 1 || target.kind === 'interface') {
    throw new ClientInputError(`${targetTypeName}Ref: an interface can only reference an existing object by id`);
  }
  return existingOrCreated(write, via, type, ref, await findExisting(write, type, ref));
}

/** The existing object a Ref names by value (if the caller may see it), or the object created from the Ref (through `via`). */
function existingOrCreated(write: Write, via: FieldModel, type: TypeModel, ref: Input, existing: Existing | undefined): string | Promise<string> {
  if (!existing) return createObject(write, type.name, ref, false, via);
  if (existing.ambiguous) throw ambiguityError();
  const visible = isVisible(write, type.name, existing.id);
  if (visible === true) return existing.id;
  if (visible === false) throw duplicateError(type.name, existing.field, existing.value);
  return visible.then((seen) => {
    if (!seen) throw duplicateError(type.name, existing.field, existing.value);
    return existing.id;
  });
}

function isVisible(write: Write, typeName: string, id: string): boolean | Promise<boolean> {
  return write.guard ? write.guard.isVisible(typeName, id) : true;
}

/** Applies `set` then `remove` (Update input semantics) to one object. */
export async function patchObject(write: Write, type: TypeModel, id: string, set: Input, remove: Input): Promise<void> {
  checkExtendedKeyKept(type, id, set, remove);
  forgetType(write.known, type.name);
  const collection = write.store.collection(type.name);
  const patch = Object.keys(set).length > 0 ? withDefaultValues(type, set, 'update', nowOf(write)) : set;
  const values = scalarValues(write.model, type, patch);
  await checkInterfaceUniqueIds(write, type, values.set);
  const secret = secretWrites(type, set, remove);
  const toSet = { ...values.set, ...secret.set };
  const toUnset = [...values.unset, ...secret.unset];
  const update: Record<string, Record<string, unknown>> = {};
  if (Object.keys(toSet).length > 0) update.$set = toSet;
  if (toUnset.length > 0) update.$unset = Object.fromEntries(toUnset.map((name) => [name, '']));
  if (Object.keys(update).length > 0) await collection.updateMany({ _id: id }, update, { tx: write.tx });
  // Linking a single-valued edge replaces the previous one (a `$set` on the holder), so no unlink first.
  for (const [field, refs] of relationFields(write.model, type, set)) {
    for (const ref of refs) {
      await linkEdge(write.model, write.store, write.tx, type.name, field, id, await resolveRef(write, field, ref), write.guard);
    }
  }
  await removeValues(write, type, id, remove);
}

async function removeValues(write: Write, type: TypeModel, id: string, remove: Input): Promise<void> {
  const collection = write.store.collection(type.name);
  for (const field of type.fields) {
    if (!(field.name in remove) || !isKeptHere(write.model, type, field) || field.isIdField) continue;
    const value = remove[field.name];
    if (field.of.kind === 'relation') {
      const refs = (Array.isArray(value) ? value : [value]).filter((ref): ref is Input => ref !== null && ref !== undefined);
      for (const ref of refs) {
        const targetId = await existingRefId(write, field.namedType, ref);
        if (targetId) await unlinkEdge(write.model, write.store, write.tx, type.name, field, id, targetId, write.guard);
      }
      continue;
    }
    // A scalar is removed when the given value is the stored one (or null is given); list items are pulled.
    const path = storedPath(field);
    if (field.list && Array.isArray(value)) {
      await collection.updateMany({ _id: id }, { $pull: { [path]: { $in: value } } }, { tx: write.tx });
      await retokeniseList(write, type, field, id);
    } else {
      const matching = value === null ? { _id: id } : { _id: id, [path]: value };
      const derived = Object.keys(searchFieldsFor(type, { [field.name]: null }));
      const unset = Object.fromEntries([path, ...derived].map((name) => [name, '']));
      await collection.updateMany(matching, { $unset: unset }, { tx: write.tx });
    }
  }
}

/** After items were pulled from a list with text indexes, its derived tokens are made again from what is left. */
async function retokeniseList(write: Write, type: TypeModel, field: FieldModel, id: string): Promise<void> {
  if (Object.keys(searchFieldsFor(type, { [field.name]: null })).length === 0) return;
  const collection = write.store.collection(type.name);
  const [stored] = await collection.find({ _id: id }, { limit: 1 }, { tx: write.tx });
  const left = stored?.[storedPath(field)];
  const derived = searchFieldsFor(type, { [field.name]: Array.isArray(left) && left.length > 0 ? left : null });
  const set = Object.fromEntries(Object.entries(derived).filter((entry): entry is [string, string[]] => entry[1] !== undefined));
  const unset = Object.fromEntries(Object.keys(derived).filter((name) => derived[name] === undefined).map((name) => [name, '']));
  const update: Record<string, Record<string, unknown>> = {};
  if (Object.keys(set).length > 0) update.$set = set;
  if (Object.keys(unset).length > 0) update.$unset = unset;
  await collection.updateMany({ _id: id }, update, { tx: write.tx });
}

async function existingRefId(write: Write, target: string, given: Input): Promise<string | undefined> {
  const { typeName: targetTypeName, ref } = memberRefOf(write.model, target, given);
  const id = givenId(write.model, targetTypeName, ref);
  if (id !== undefined) return id;
  for (const type of concreteTypesOf(write.model, targetTypeName)) {
    const existing = await findExisting(write, type, ref);
    if (existing?.ambiguous) throw ambiguityError();
    if (existing) return existing.id;
  }
  return undefined;
}
