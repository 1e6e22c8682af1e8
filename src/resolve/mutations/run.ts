import { concreteTypesOf } from '../../sdl/facts.js';
import { compileFilter } from '../../query/filter.js';
import type { SchemaModel } from '../../sdl/model.js';
import { DuplicateKeyError, type Store, type Transaction } from '../../store/port.js';
import { checkAddRules, checkUpdateRule, restrictPlan, type TypeConstraint } from '../authorize.js';
import { runPlan } from '../read.js';
import { bufferInserts } from './buffered-inserts.js';
import { detachDeleted } from './edges.js';
import { readAheadUniqueIds } from './known-ids.js';
import { asDuplicateError, createObject, patchObject, typeOf, type Write } from './objects.js';

/** Mutations run each as one store transaction: all inputs are written, or none. */

/** The caller's `@auth` rules per operation: update/delete narrow what is touched, add checks what was created. */
export interface MutationAuth {
  add: TypeConstraint;
  update: TypeConstraint;
  delete: TypeConstraint;
}

export interface MutationOutcome {
  /** Objects the payload lists, per concrete type. */
  ids: Map<string, string[]>;
  numUids: number;
}

async function inTransaction(model: SchemaModel, store: Store, work: (write: Write) => Promise<Map<string, string[]>>, auth?: MutationAuth): Promise<MutationOutcome> {
  return store.transaction(async (tx) => {
    // Inserts are held back and written in one batch per collection (see buffered-inserts.ts), so a
    // duplicate may surface at a later store call: it is reported for the type of its collection.
    const buffered = bufferInserts(store, tx);
    const write: Write = { model, store: buffered, tx, created: 0, createdIds: new Map() };
    if (auth) write.checkUpdatable = (typeName, id) => checkUpdateRule(buffered, tx, typeName, id, auth.update);
    try {
      const ids = await work(write);
      await buffered.flush();
      if (auth) await checkAddRules(buffered, tx, write.createdIds, auth.add);
      return { ids, numUids: write.created };
    } catch (error) {
      const type = error instanceof DuplicateKeyError ? model.types.get(error.collection) : undefined;
      throw type ? asDuplicateError(error, type) : error;
    }
  });
}

export function addObjects(model: SchemaModel, store: Store, typeName: string, inputs: Record<string, unknown>[], upsert: boolean, auth?: MutationAuth): Promise<MutationOutcome> {
  return inTransaction(model, store, async (write) => {
    write.known = await readAheadUniqueIds(model, store, write.tx, typeName, inputs);
    const ids: string[] = [];
    for (const input of inputs) ids.push(await createObject(write, typeName, input, upsert));
    return new Map([[typeName, [...new Set(ids)]]]);
  }, auth);
}

/** The ids `filter` selects in each concrete type, read inside the transaction. */
async function matchingIds(write: Write, typeName: string, filter: Record<string, unknown> | null | undefined, auth?: TypeConstraint): Promise<Map<string, string[]>> {
  const matches = new Map<string, string[]>();
  for (const type of concreteTypesOf(write.model, typeName)) {
    const plan = restrictPlan(compileFilter(write.model, type.name, filter), auth?.(type.name));
    const documents = await runPlan(write.store.collection(type.name), plan, { _id: 1 }, 0, undefined, write.tx);
    matches.set(type.name, documents.map((document) => document._id));
  }
  return matches;
}

export async function updateObjects(model: SchemaModel, store: Store, typeName: string, input: { filter: Record<string, unknown>; set?: Record<string, unknown> | null; remove?: Record<string, unknown> | null }, auth?: MutationAuth): Promise<MutationOutcome> {
  const outcome = await inTransaction(model, store, async (write) => {
    const matches = await matchingIds(write, typeName, input.filter, auth?.update);
    for (const [concrete, ids] of matches) {
      const type = typeOf(model, concrete);
      for (const id of ids) await patchObject(write, type, id, input.set ?? {}, input.remove ?? {});
    }
    return matches;
  }, auth);
  const updated = [...outcome.ids.values()].reduce((sum, ids) => sum + ids.length, 0);
  return { ids: outcome.ids, numUids: updated };
}

export async function deleteObjects(model: SchemaModel, store: Store, typeName: string, filter: Record<string, unknown>, beforeDelete: (ids: Map<string, string[]>, tx: Transaction) => Promise<void>, auth?: MutationAuth): Promise<MutationOutcome> {
  const outcome = await inTransaction(model, store, async (write) => {
    const matches = await matchingIds(write, typeName, filter, auth?.delete);
    await beforeDelete(matches, write.tx);
    for (const [concrete, ids] of matches) {
      if (ids.length === 0) continue;
      await store.collection(concrete).deleteMany({ _id: { $in: ids } }, write.tx);
      await detachDeleted(model, store, write.tx, concrete, ids);
    }
    return matches;
  }, auth);
  const deleted = [...outcome.ids.values()].reduce((sum, ids) => sum + ids.length, 0);
  return { ids: outcome.ids, numUids: deleted };
}
