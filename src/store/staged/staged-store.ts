/**
 * A Store that holds a unit of work's writes back: inserts, updates and deletes are applied to an overlay
 * in memory and recorded, reads answer from the underlying store with the overlay laid over it, and
 * nothing reaches the underlying store until `applyTo` replays the recorded writes in order. A mutation
 * runs its whole logic on it, decides its `@auth` rules against the documents it is about to write, and
 * only then writes: so a refused mutation writes nothing on every backend, with or without transactions
 * (a standalone MongoDB server has none).
 *
 * Reads of a collection without pending writes pass straight through. With pending writes, a `find`
 * asks the underlying store for the same filter (enough documents to make up for the overlaid ones) and
 * merges; an `aggregate` runs in memory over the reads its `$match` and `$lookup` stages need
 * (staged-pipeline.ts). Every document a `find` returns is read whole and kept, so updating or deleting an
 * object read before costs no second read.
 */
import { Query, update as applyUpdate } from 'mingo';
import { compareBySort } from '../../query/sort-compare.js';
import { cloneJson, isPlainObject } from '../embedded/json-values.js';
import { withLinearRegex } from '../embedded/linear-regex.js';
import {
  DuplicateKeyError,
  type Collection,
  type Filter,
  type FindOptions,
  type OperationScope,
  type PerKeyPage,
  type Pipeline,
  type Store,
  type StoredDocument,
  type UpdateDocument,
  type UpdateResult,
} from '../port.js';
import { withCollections } from '../with-collections.js';
import { runStagedPipeline } from './staged-pipeline.js';

export type StagedWrite =
  | { kind: 'insert'; collection: string; documents: StoredDocument[]; scope?: OperationScope }
  | { kind: 'update'; collection: string; filter: Filter; update: UpdateDocument; scope?: OperationScope }
  | { kind: 'delete'; collection: string; filter: Filter; scope?: OperationScope };

export interface StagedStore extends Store {
  /** The writes held back so far, in the order they were made. */
  readonly writes: readonly StagedWrite[];
  /** Replays the held-back writes on `target` (the store this one was made over, or a wrapper of it), in order. */
  applyTo(target: Store): Promise<void>;
  /**
   * `insertMany` of documents the caller hands over (it never changes them afterwards): held back as they
   * are, without the copy `insertMany` makes, and at once, without a promise. Throws DuplicateKeyError as
   * `insertMany` rejects with it. A mutation creating 100 objects makes each document once and calls this
   * 100 times.
   */
  insertHandedOver(collection: string, documents: StoredDocument[], scope?: OperationScope): void;
}

/** One collection's overlay: documents changed by the pending writes (null: deleted) and documents read whole. */
interface Overlay {
  changed: Map<string, StoredDocument | null>;
  read: Map<string, StoredDocument>;
}

export function stageWrites(store: Store): StagedStore {
  const overlays = new Map<string, Overlay>();
  const writes: StagedWrite[] = [];
  const overlayOf = (name: string): Overlay => {
    let overlay = overlays.get(name);
    if (!overlay) overlays.set(name, (overlay = { changed: new Map(), read: new Map() }));
    return overlay;
  };
  const hasPendingWrites = (name: string): boolean => (overlays.get(name)?.changed.size ?? 0) > 0;

  /**
   * Inserts into one collection in a row, in the same scope, are recorded as one write: an add of 100
   * objects replays as one insertMany, not 100.
   */
  const recordInsert = (name: string, documents: StoredDocument[], scope: OperationScope | undefined): void => {
    const last = writes.at(-1);
    if (last?.kind === 'insert' && last.collection === name && last.scope?.tx === scope?.tx && last.scope?.deadline === scope?.deadline) {
      // One by one: spreading a large batch into push's arguments would overflow the call stack.
      for (const document of documents) last.documents.push(document);
    } else {
      // A list of its own: later inserts in a row are added to it.
      writes.push({ kind: 'insert', collection: name, documents: documents.slice(), scope });
    }
  };

  /** Holds inserts back: the documents become the overlay's and the recorded write's (neither ever changes them in place). */
  const insertHandedOver = (name: string, documents: StoredDocument[], scope: OperationScope | undefined): void => {
    const overlay = overlayOf(name);
    const batch = documents.length > 1 ? new Set<string>() : undefined;
    for (const document of documents) {
      if (known(overlay, document._id) || batch?.has(document._id)) throw new DuplicateKeyError(name, '_id', document._id);
      batch?.add(document._id);
    }
    for (const document of documents) overlay.changed.set(document._id, document);
    recordInsert(name, documents, scope);
  };

  /** The current version of a document the overlay knows, or undefined when only the store knows it. */
  const known = (overlay: Overlay, id: string): StoredDocument | null | undefined =>
    overlay.changed.has(id) ? overlay.changed.get(id) : overlay.read.get(id);

  /** Every document of `name` that `filter` selects, whole, as the pending writes leave it. */
  const currentMatches = async (name: string, filter: Filter, options: FindOptions, scope?: OperationScope): Promise<StoredDocument[]> => {
    const overlay = overlayOf(name);
    const ids = idsNamedBy(filter);
    if (ids && ids.every((id) => known(overlay, id) !== undefined)) {
      // The ids are taken care of; the rest of the filter is tested (mingo's `$in` costs a scan of its list per document).
      const { _id: _ids, ...rest } = filter;
      const matchesRest = Object.keys(rest).length === 0 ? () => true : matcher(rest);
      return ids.map((id) => known(overlay, id)).filter((document): document is StoredDocument => !!document && matchesRest(document));
    }
    const matches = matcher(filter);
    const { sort, skip = 0, limit } = options;
    // Overlaid documents may take the place of some the store returns: ask for that many more.
    const wanted = limit ? skip + limit + overlay.changed.size : undefined;
    const fromStore = await store.collection(name).find(filter, { sort, limit: wanted }, scope);
    for (const document of fromStore) if (!overlay.changed.has(document._id)) overlay.read.set(document._id, cloneJson(document));
    const current = fromStore.filter((document) => !overlay.changed.has(document._id));
    for (const document of overlay.changed.values()) if (document && matches(document)) current.push(document);
    return current;
  };

  const find = async (name: string, filter: Filter, options: FindOptions = {}, scope?: OperationScope): Promise<StoredDocument[]> => {
    const overlay = overlayOf(name);
    const ids = idsNamedBy(filter);
    const answeredHere = ids !== undefined && ids.every((id) => known(overlay, id) !== undefined);
    if (!hasPendingWrites(name) && !answeredHere) {
      // Whole documents, even for a projection: a mutation reads what it is about to change (the ids an
      // update or delete selects), and a write of a document read whole needs no second read.
      // The store's answers are this store's own: with a projection the caller gets projected copies and the
      // overlay keeps them as they are (an add reading ahead 100 `@id` values copies no document whole).
      const { projection, ...whole } = options;
      const found = await store.collection(name).find(filter, whole, scope);
      if (projection) {
        for (const document of found) overlay.read.set(document._id, document);
        return found.map((document) => project(document, projection));
      }
      for (const document of found) overlay.read.set(document._id, cloneJson(document));
      return found;
    }
    const { sort, skip = 0, limit, projection } = options;
    const matches = await currentMatches(name, filter, options, scope);
    if (sort) matches.sort((a, b) => compareBySort(a, b, sort));
    const page = matches.slice(skip, limit ? skip + limit : undefined);
    return page.map((document) => (projection ? project(document, projection) : cloneJson(document)));
  };

  const collection = (name: string): Collection => ({
    name,
    find: (filter, options, scope) => find(name, filter, options, scope),
    async count(filter, scope) {
      if (!hasPendingWrites(name)) return store.collection(name).count(filter, scope);
      return (await currentMatches(name, filter, {}, scope)).length;
    },
    async aggregate(pipeline, scope) {
      if (!collectionsOf(name, pipeline).some(hasPendingWrites)) return store.collection(name).aggregate(pipeline, scope);
      return runStagedPipeline((from, filter) => find(from, filter, {}, scope), name, pipeline);
    },
    async findPerKey(field, keys, filter, page, scope) {
      if (!hasPendingWrites(name)) return store.collection(name).findPerKey(field, keys, filter, page, scope);
      return pagePerKey(await currentMatches(name, { $and: [filter, { [field]: { $in: [...keys] } }] }, {}, scope), field, keys, page);
    },
    async insertMany(documents, scope) {
      // One copy serves the overlay and the recorded write: neither is ever changed in place (an update
      // overlays a changed copy), and the write is handed to the store only once, by applyTo.
      insertHandedOver(name, documents.map(cloneJson), scope);
    },
    async updateMany(filter, update, scope): Promise<UpdateResult> {
      const overlay = overlayOf(name);
      const matches = await currentMatches(name, filter, {}, scope);
      let modified = 0;
      for (const document of matches) {
        const next = cloneJson(document);
        const paths = applyUpdate(next, update, undefined, filter, { cloneMode: 'deep', queryOptions: { scriptEnabled: false } });
        if (paths.length === 0) continue;
        overlay.changed.set(next._id, next);
        modified += 1;
      }
      writes.push({ kind: 'update', collection: name, filter, update, scope });
      return { matched: matches.length, modified };
    },
    async deleteMany(filter, scope) {
      const overlay = overlayOf(name);
      const matches = await currentMatches(name, filter, {}, scope);
      for (const document of matches) overlay.changed.set(document._id, null);
      writes.push({ kind: 'delete', collection: name, filter, scope });
      return matches.length;
    },
  });

  return Object.assign(withCollections(store, collection), {
    writes,
    insertHandedOver,
    async applyTo(target: Store) {
      for (const write of writes) {
        const into = target.collection(write.collection);
        if (write.kind === 'insert') await into.insertMany(write.documents, write.scope);
        else if (write.kind === 'update') await into.updateMany(write.filter, write.update, write.scope);
        else await into.deleteMany(write.filter, write.scope);
      }
    },
  });
}

function matcher(filter: Filter): (document: StoredDocument) => boolean {
  const { value, options } = withLinearRegex(filter);
  const query = new Query(value, { scriptEnabled: false, ...options });
  return (document) => query.test(document);
}

/** The ids a filter selects by `_id` equality or `$in` (with other conditions beside), or undefined. */
function idsNamedBy(filter: Filter): string[] | undefined {
  const id = filter._id;
  if (typeof id === 'string') return [id];
  if (isPlainObject(id) && Object.keys(id).length === 1 && Array.isArray(id.$in) && id.$in.every((item) => typeof item === 'string')) {
    return [...new Set(id.$in as string[])];
  }
  return undefined;
}

function project(document: StoredDocument, projection: Record<string, 1>): StoredDocument {
  const projected: StoredDocument = { _id: document._id };
  for (const field of Object.keys(projection)) if (field in document) projected[field] = cloneJson(document[field]);
  return projected;
}

/** Every collection a pipeline run on `name` reads: its own, `$lookup`s and `$unionWith`s, nested ones included. */
export function collectionsOf(name: string, pipeline: Pipeline): string[] {
  const names = new Set([name]);
  const walk = (stages: unknown): void => {
    if (!Array.isArray(stages)) return;
    for (const stage of stages) {
      if (!isPlainObject(stage)) continue;
      const lookup = stage.$lookup;
      if (isPlainObject(lookup)) {
        if (typeof lookup.from === 'string') names.add(lookup.from);
        walk(lookup.pipeline);
      }
      const union = stage.$unionWith;
      if (typeof union === 'string') names.add(union);
      if (isPlainObject(union)) {
        if (typeof union.coll === 'string') names.add(union.coll);
        walk(union.pipeline);
      }
      if (isPlainObject(stage.$facet)) Object.values(stage.$facet).forEach(walk);
    }
  };
  walk(pipeline);
  return [...names];
}

function pagePerKey(documents: StoredDocument[], field: string, keys: readonly string[], page: PerKeyPage): Map<string, StoredDocument[]> {
  const { sort, skip = 0, limit, projection } = page;
  if (sort) documents.sort((a, b) => compareBySort(a, b, sort));
  const pages = new Map<string, StoredDocument[]>(keys.map((key) => [key, []]));
  for (const document of documents) {
    const value = document[field];
    for (const key of Array.isArray(value) ? value : [value]) pages.get(key as string)?.push(projection ? project(document, projection) : cloneJson(document));
  }
  for (const [key, list] of pages) pages.set(key, list.slice(skip, limit ? skip + limit : undefined));
  return pages;
}
