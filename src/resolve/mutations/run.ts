import { concreteTypesOf } from '../../sdl/facts.js';
import { compileFilter } from '../../query/filter.js';
import type { SchemaModel } from '../../sdl/model.js';
import { DuplicateKeyError, type Store, type Transaction } from '../../store/port.js';
import { checkAddRules, restrictPlan, type TypeConstraint } from '../authorize.js';
import { runPlan } from '../read.js';
import { idBatches } from '../../store/id-batches.js';
import { stageWrites } from '../../store/staged/staged-store.js';
import { bufferInserts } from './buffered-inserts.js';
import { mapInOrder } from './in-order.js';
import { detachDeleted } from './edges.js';
import { writeInterfaceIdClaims } from './interface-id-claims.js';
import { readAheadInterfaceIds } from './interface-ids.js';
import { readAheadUniqueIds } from './known-ids.js';
import { prepareReferenceGuard, type GuardSetup } from './reference-guard.js';
import { addIdentity, collectReferences, noReferences } from './references.js';
import { asDuplicateError, createObject, patchObject, typeOf, type Write } from './objects.js';
import { rewording } from './rewrite-errors.js';
import { checkUpdateInput } from './update-input-check.js';
import { names } from '../../api/names.js';

/**
 * Mutations run each as one store transaction: all inputs are written, or none (where the store has
 * transactions). Every `@auth` verdict is reached before the first write: the mutation's logic runs on a
 * staged store that holds its writes back (store/staged/), its add rules are checked against the objects
 * it is about to create, and only then are the held-back writes replayed on the store. So a refused
 * mutation writes nothing on every backend, a MongoDB server without transactions included.
 */

/** The caller's `@auth` rules per operation: update/delete narrow what is touched, add checks what is created. */
export interface MutationAuth {
  /** Which existing objects the caller may see: those an input's Refs may name. */
  query: TypeConstraint;
  add: TypeConstraint;
  update: TypeConstraint;
  delete: TypeConstraint;
}

export interface MutationOutcome {
  /** Objects the payload lists, per concrete type. */
  ids: Map<string, string[]>;
  numUids: number;
}

/**
 * Whether the caller's query or update rules restrict some type of the model. When none does, a reference
 * guard would allow every Ref and every change, so the inputs need no walk for the objects they name.
 */
function restrictsReferences(model: SchemaModel, auth: MutationAuth): boolean {
  for (const type of model.types.values()) {
    if (type.kind === 'type' && (auth.query(type.name) !== undefined || auth.update(type.name) !== undefined)) return true;
  }
  return false;
}

function guardSetup(write: Write, auth: MutationAuth): GuardSetup {
  return { model: write.model, store: write.store, tx: write.tx, query: auth.query, update: auth.update, created: write.createdIds };
}

async function inTransaction(model: SchemaModel, store: Store, work: (write: Write) => Promise<Map<string, string[]>>, auth?: MutationAuth): Promise<MutationOutcome> {
  return store.transaction(async (tx) => {
    const staged = stageWrites(store);
    const write: Write = { model, store: staged, tx, created: 0, createdIds: new Map() };
    try {
      const ids = await work(write);
      if (write.interfaceIds) await writeInterfaceIdClaims(store, tx, write.interfaceIds.claimed);
      if (auth) await checkAddRules(staged, tx, write.createdIds, auth.add);
      // Inserts are written in one batch per collection (see buffered-inserts.ts), so a duplicate may
      // surface at a later store call: it is reported for the type of its collection.
      const buffered = bufferInserts(store, tx);
      await staged.applyTo(buffered);
      await buffered.flush();
      return { ids, numUids: write.created };
    } catch (error) {
      const type = error instanceof DuplicateKeyError ? model.types.get(error.collection) : undefined;
      throw type ? asDuplicateError(error, type) : error;
    }
  });
}

export function addObjects(model: SchemaModel, store: Store, typeName: string, inputs: Record<string, unknown>[], upsert: boolean, auth?: MutationAuth): Promise<MutationOutcome> {
  return rewording(names.add(typeName), 'payload', () => inTransaction(model, store, async (write) => {
    write.known = await readAheadUniqueIds(model, store, write.tx, typeName, inputs);
    write.interfaceIds = await readAheadInterfaceIds(model, store, write.tx, typeName, inputs);
    if (auth && restrictsReferences(model, auth)) {
      const references = noReferences();
      for (const input of inputs) {
        // An upsert may find and update the input's own object; otherwise that object is new (or a duplicate).
        if (upsert) addIdentity(model, typeName, input, references);
        collectReferences(model, typeName, input, references);
      }
      write.guard = await prepareReferenceGuard(guardSetup(write, auth), references, new Map());
    }
    const ids = await mapInOrder(inputs, (input) => createObject(write, typeName, input, upsert));
    return new Map([[typeName, [...new Set(ids)]]]);
  }, auth));
}

/**
 * The ids `filter` selects in each concrete type, read inside the transaction: those `auth` (the update or
 * delete rule) allows, with a `has` counting only the related objects `visible` (the query rule) allows.
 */
async function matchingIds(write: Write, typeName: string, filter: Record<string, unknown> | null | undefined, auth?: TypeConstraint, visible?: TypeConstraint): Promise<Map<string, string[]>> {
  const matches = new Map<string, string[]>();
  for (const type of concreteTypesOf(write.model, typeName)) {
    const plan = restrictPlan(compileFilter(write.model, type.name, filter, visible), auth?.(type.name));
    const documents = await runPlan(write.store.collection(type.name), plan, { _id: 1 }, 0, undefined, write.tx);
    matches.set(type.name, documents.map((document) => document._id));
  }
  return matches;
}

export async function updateObjects(model: SchemaModel, store: Store, typeName: string, input: { filter: Record<string, unknown>; set?: Record<string, unknown> | null; remove?: Record<string, unknown> | null }, auth?: MutationAuth): Promise<MutationOutcome> {
  const mutation = names.update(typeName);
  const outcome = await rewording(mutation, 'payload', () => inTransaction(model, store, async (write) => {
    checkUpdateInput(model, typeOf(model, typeName), input.set ?? {}, input.remove ?? {});
    const matches = await rewording(mutation, 'filter', () => matchingIds(write, typeName, input.filter, auth?.update, auth?.query));
    if (auth && restrictsReferences(model, auth)) {
      const references = noReferences();
      collectReferences(model, typeName, input.set ?? {}, references);
      collectReferences(model, typeName, input.remove ?? {}, references);
      write.guard = await prepareReferenceGuard(guardSetup(write, auth), references, matches);
    }
    for (const [concrete, ids] of matches) {
      const type = typeOf(model, concrete);
      for (const id of ids) await patchObject(write, type, id, input.set ?? {}, input.remove ?? {});
    }
    return matches;
  }, auth));
  const updated = [...outcome.ids.values()].reduce((sum, ids) => sum + ids.length, 0);
  return { ids: outcome.ids, numUids: updated };
}

export async function deleteObjects(model: SchemaModel, store: Store, typeName: string, filter: Record<string, unknown>, beforeDelete: (ids: Map<string, string[]>, tx: Transaction) => Promise<void>, auth?: MutationAuth): Promise<MutationOutcome> {
  const outcome = await inTransaction(model, store, async (write) => {
    const matches = await rewording(names.delete(typeName), 'filter', () => matchingIds(write, typeName, filter, auth?.delete, auth?.query));
    await beforeDelete(matches, write.tx);
    for (const [concrete, ids] of matches) {
      for (const batch of idBatches(ids)) {
        await write.store.collection(concrete).deleteMany({ _id: { $in: batch } }, { tx: write.tx });
        await detachDeleted(model, write.store, write.tx, concrete, batch);
      }
    }
    return matches;
  }, auth);
  const deleted = [...outcome.ids.values()].reduce((sum, ids) => sum + ids.length, 0);
  return { ids: outcome.ids, numUids: deleted };
}
