import type { SchemaModel } from '../sdl/model.js';
import { INDEX_PREFIX } from '../store/indexes.js';
import type { Store } from '../store/port.js';

/** What dropping a removed type's data did. */
export interface CollectionDrop {
  type: string;
  /** Objects deleted. */
  deleted: number;
  /** The service's indexes removed from the collection. */
  indexesDropped: string[];
}

/** Why a type's data may not be dropped, or undefined when it may. */
export type DropRefusal = { reason: 'invalid-name' | 'in-schema'; message: string };

/** A GraphQL type name; user types cannot start with `_`, so this never names one of the service's own collections. */
const TYPE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Whether `typeName`'s stored objects may be dropped while `active` is served: only a type the schema no longer has. */
export function dropRefusal(typeName: string, active: SchemaModel): DropRefusal | undefined {
  if (!TYPE_NAME.test(typeName)) {
    return { reason: 'invalid-name', message: `"${typeName}" is not a type name: a collection of a type is named like the type (letters, digits and _, not starting with _)` };
  }
  const declared = active.types.get(typeName);
  if (declared !== undefined || active.enums.has(typeName)) {
    const kind = declared?.kind ?? 'enum';
    return {
      reason: 'in-schema',
      message: `${kind} ${typeName} is in the active schema: only the data of a type the schema no longer has can be dropped; remove ${typeName} from the schema first`,
    };
  }
  return undefined;
}

/**
 * Deletes every stored object of `typeName` and the service's indexes on its collection, through the
 * Store port (so on both backends; MongoDB keeps the then empty collection). The caller has checked
 * `dropRefusal` against the served schema.
 */
export async function dropTypeData(store: Store, typeName: string): Promise<CollectionDrop> {
  const deleted = await store.collection(typeName).deleteMany({});
  // Syncing would create a collection that was never there (MongoDB): only a collection with our indexes is synced.
  const ours = (await store.listIndexes(typeName)).filter((index) => index.name.startsWith(INDEX_PREFIX));
  const dropped = ours.length === 0 ? [] : (await store.syncIndexes(typeName, [], INDEX_PREFIX)).dropped;
  return { type: typeName, deleted, indexesDropped: dropped.map((name) => `${typeName}.${name}`) };
}
