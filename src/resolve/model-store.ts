import { storedCollectionOf } from '../sdl/facts.js';
import type { SchemaModel } from '../sdl/model.js';
import type { Store } from '../store/port.js';
import { storedCollectionsStore } from '../store/stored-collections.js';
import type { RequestContext } from './context.js';

/**
 * The request's store addressed by type name for `model`: types stored under another collection name
 * (`@dgraph(type:)`) reach their collection. Resolvers pass type names everywhere; only this store knows
 * where each type is kept. Made once per request and schema.
 */
export function storeOf(context: RequestContext, model: SchemaModel): Store {
  const holder = context as ContextWithStores;
  let byModel = holder[STORES_BY_MODEL];
  if (!byModel) holder[STORES_BY_MODEL] = byModel = new Map();
  let store = byModel.get(model);
  if (!store) byModel.set(model, (store = storedCollectionsStore(context.store, storedCollections(model))));
  return store;
}

/**
 * The context's own property, not a WeakMap entry keyed by the context: every request would add one, and a
 * weak map's entries cost each garbage collection until their request is collected.
 */
const STORES_BY_MODEL = Symbol('autograph.storesByModel');

type ContextWithStores = RequestContext & { [STORES_BY_MODEL]?: Map<SchemaModel, Store> };
const collectionsByModel = new WeakMap<SchemaModel, ReadonlyMap<string, string>>();

/** `type name → collection` for the types stored under another name. */
export function storedCollections(model: SchemaModel): ReadonlyMap<string, string> {
  let collections = collectionsByModel.get(model);
  if (!collections) {
    collections = new Map([...model.types.values()].filter((type) => type.storedName !== undefined).map((type) => [type.name, storedCollectionOf(type)]));
    collectionsByModel.set(model, collections);
  }
  return collections;
}
