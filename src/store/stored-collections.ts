import type { Collection, Pipeline, Store } from './port.js';
import { withCollections } from './with-collections.js';

/**
 * `store` addressed by type name while the documents live in the collections `collections` names (the
 * `@dgraph(type:)` storage names, `type → collection`; a type not in the map is stored under its own
 * name). Every collection a call reaches is translated: the collection itself, `$lookup.from` and
 * `$unionWith.coll` in pipelines (nested ones included), and index maintenance. With an empty map the
 * store itself is returned.
 */
export function storedCollectionsStore(store: Store, collections: ReadonlyMap<string, string>): Store {
  if (collections.size === 0) return store;
  const stored = (name: string): string => collections.get(name) ?? name;
  const translated = withCollections(store, (name) => translatedCollection(store.collection(stored(name)), stored), { readsPassedStraightOn: true });
  return {
    ...translated,
    get kind() {
      return store.kind;
    },
    syncIndexes: (name, specs, prefix) => store.syncIndexes(stored(name), specs, prefix),
    listIndexes: (name) => store.listIndexes(stored(name)),
  };
}

function translatedCollection(inner: Collection, stored: (name: string) => string): Collection {
  return {
    name: inner.name,
    find: (filter, options, scope) => inner.find(filter, options, scope),
    count: (filter, scope) => inner.count(filter, scope),
    aggregate: (pipeline, scope) => inner.aggregate(translatePipeline(pipeline, stored), scope),
    findPerKey: (field, keys, filter, page, scope) => inner.findPerKey(field, keys, filter, page, scope),
    insertMany: (documents, scope) => inner.insertMany(documents, scope),
    updateMany: (filter, update, scope) => inner.updateMany(filter, update, scope),
    deleteMany: (filter, scope) => inner.deleteMany(filter, scope),
  };
}

/** `pipeline` with every collection it names translated by `stored`. */
export function translatePipeline(pipeline: Pipeline, stored: (name: string) => string): Pipeline {
  return pipeline.map((stage) => translateStage(stage, stored));
}

function translateStage(stage: Record<string, unknown>, stored: (name: string) => string): Record<string, unknown> {
  if (isRecord(stage.$lookup)) {
    const lookup = { ...stage.$lookup };
    if (typeof lookup.from === 'string') lookup.from = stored(lookup.from);
    if (Array.isArray(lookup.pipeline)) lookup.pipeline = translatePipeline(lookup.pipeline as Pipeline, stored);
    return { ...stage, $lookup: lookup };
  }
  if (typeof stage.$unionWith === 'string') return { ...stage, $unionWith: stored(stage.$unionWith) };
  if (isRecord(stage.$unionWith)) {
    const union = { ...stage.$unionWith };
    if (typeof union.coll === 'string') union.coll = stored(union.coll);
    if (Array.isArray(union.pipeline)) union.pipeline = translatePipeline(union.pipeline as Pipeline, stored);
    return { ...stage, $unionWith: union };
  }
  if (isRecord(stage.$facet)) {
    const facets = Object.fromEntries(Object.entries(stage.$facet).map(([name, sub]) => [name, Array.isArray(sub) ? translatePipeline(sub as Pipeline, stored) : sub]));
    return { ...stage, $facet: facets };
  }
  return stage;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
