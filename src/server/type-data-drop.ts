import { dropRefusal, dropTypeData, type CollectionDrop } from '../schema-changes/collection-drop.js';
import type { Store } from '../store/port.js';
import type { ActiveSchema } from './activation.js';
import { HttpError } from './http-io.js';
import { answeringStoreOutage } from './store-refusal.js';

export interface TypeDataDropSteps {
  store: Store;
  /** The schema being served, if any. */
  served(): ActiveSchema | undefined;
  /** Activates the schema another instance stored, if any, so the check sees the newest one. */
  checkStore(): Promise<void>;
  /** The activation queue: no upload here runs between the check and the drop. */
  enqueue<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * `DELETE /admin/collections/<Type>`: drops the collection of a type only when the schema served
 * (after catching up with the store) no longer has it. Refusals are HttpErrors with a client code.
 */
export async function dropRemovedTypeData(typeName: string, steps: TypeDataDropSteps): Promise<CollectionDrop> {
  await steps.checkStore();
  return steps.enqueue(async () => {
    const served = steps.served();
    if (served === undefined) {
      throw new HttpError(503, 'SCHEMA_NOT_LOADED', `no schema loaded, so whether type ${typeName} is still in use is unknown: nothing was dropped`);
    }
    const refusal = dropRefusal(typeName, served.model);
    if (refusal !== undefined) {
      throw refusal.reason === 'in-schema' ? new HttpError(409, 'COLLECTION_IN_USE', refusal.message) : new HttpError(400, 'BAD_REQUEST', refusal.message);
    }
    return answeringStoreOutage(() => dropTypeData(steps.store, typeName));
  });
}
