import { storedCollectionOf } from '../sdl/facts.js';
import type { SchemaModel } from '../sdl/model.js';
import type { Store } from '../store/port.js';

/** What dropping a removed type's data did. */
export interface CollectionDrop {
  type: string;
  /** Whether the type's collection existed (and is now gone). */
  collectionDropped: boolean;
  /** Objects deleted with it. */
  deleted: number;
  /** The indexes that went with it (`Type.name`; the implicit `_id` index is not listed). */
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
  // A type renamed with @dgraph(type:) keeps its collection, which the removed name still names.
  const reader = [...active.types.values()].find((type) => type.kind === 'type' && storedCollectionOf(type) === typeName);
  if (reader !== undefined) {
    return {
      reason: 'in-schema',
      message: `the collection ${typeName} holds the objects of type ${reader.name} (@dgraph(type: "${typeName}")), which the active schema serves: nothing was dropped`,
    };
  }
  return undefined;
}

/**
 * Drops the collection of `typeName` with its stored objects and indexes, through the Store port (so on
 * both backends). The caller has checked `dropRefusal` against the served schema, so nothing writes to
 * the type meanwhile and the counts read first are what the drop removes.
 */
export async function dropTypeData(store: Store, typeName: string): Promise<CollectionDrop> {
  const deleted = await store.collection(typeName).count({});
  const indexes = await store.listIndexes(typeName);
  const collectionDropped = await store.dropCollection(typeName);
  return {
    type: typeName,
    collectionDropped,
    deleted: collectionDropped ? deleted : 0,
    indexesDropped: collectionDropped ? indexes.map((index) => `${typeName}.${index.name}`) : [],
  };
}
