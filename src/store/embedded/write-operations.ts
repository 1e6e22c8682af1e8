/**
 * insertMany / updateMany / deleteMany against the current state. Each checks everything first (valid
 * JSON documents, unique keys across the stored documents and within the batch) and only then writes, so
 * a failing call leaves nothing behind; every change is remembered in the write scope for rollback.
 */
import { update as applyUpdate } from 'mingo';
import { DuplicateKeyError, type Filter, type StoredDocument, type UpdateDocument, type UpdateResult } from '../port.js';
import type { CollectionState } from './collection-state.js';
import { CollectionView } from './collection-view.js';
import { matchingDocuments } from './find-documents.js';
import { NO_DEADLINE, type ScanDeadline } from './scan-deadline.js';
import { cloneJson, isPlainObject, toStorableDocument } from './json-values.js';
import type { WriteScope } from './write-scope.js';

export function insertDocuments(state: CollectionState, scope: WriteScope, documents: StoredDocument[]): void {
  if (!Array.isArray(documents)) throw new Error(`insertMany into ${state.name}: expected an array of documents`);
  const storable = documents.map((document) => toStorableDocument(state.name, document));
  // Ids made in order (ObjectIds) are above every stored one: a lookup each in a map of every id is skipped.
  if (!state.newAscendingIds(storable.map((document) => document._id))) refuseDuplicateIds(state, storable);
  checkUniqueKeys(state, storable, new Set());
  for (const document of storable) {
    scope.remember(state.name, document._id, undefined);
    state.insertNew(document);
  }
}

function refuseDuplicateIds(state: CollectionState, documents: readonly StoredDocument[]): void {
  const batchIds = new Set<string>();
  for (const document of documents) {
    if (state.get(document._id) || batchIds.has(document._id)) {
      throw new DuplicateKeyError(state.name, '_id', document._id);
    }
    batchIds.add(document._id);
  }
}

export function updateDocuments(
  state: CollectionState,
  scope: WriteScope,
  filter: Filter,
  update: UpdateDocument,
  deadline: ScanDeadline = NO_DEADLINE,
): UpdateResult {
  checkUpdateDocument(state.name, update);
  const matches = matchingDocuments(new CollectionView(state, undefined), state.name, filter, deadline);
  const changed: StoredDocument[] = [];
  for (const document of matches) {
    const next = cloneJson(document);
    let modifiedPaths: string[];
    try {
      modifiedPaths = applyUpdate(next, update, undefined, filter, { cloneMode: 'deep', queryOptions: { scriptEnabled: false } });
    } catch (error) {
      throw new Error(`updateMany on ${state.name} failed for _id ${JSON.stringify(document._id)}: ${(error as Error).message}`);
    }
    if (modifiedPaths.length === 0) continue;
    changed.push(toStorableDocument(state.name, next));
  }
  checkUniqueKeys(state, changed, new Set(changed.map((document) => document._id)));
  for (const document of changed) {
    scope.remember(state.name, document._id, state.get(document._id));
    state.put(document);
  }
  return { matched: matches.length, modified: changed.length };
}

export function deleteDocuments(state: CollectionState, scope: WriteScope, filter: Filter, deadline: ScanDeadline = NO_DEADLINE): number {
  const matches = matchingDocuments(new CollectionView(state, undefined), state.name, filter, deadline);
  for (const document of matches) {
    scope.remember(state.name, document._id, document);
    state.remove(document._id);
  }
  return matches.length;
}

/**
 * Throws DuplicateKeyError if a unique index would hold a key twice after writing `documents`.
 * `replacing` names stored documents whose current keys go away in this write.
 */
function checkUniqueKeys(state: CollectionState, documents: StoredDocument[], replacing: ReadonlySet<string>): void {
  for (const index of state.uniqueIndexes()) {
    const batchOwners = new Map<string, string>();
    for (const document of documents) {
      const keys = index.keysOf(document);
      const stored = index.findConflict(document._id, keys, replacing);
      if (stored) throw new DuplicateKeyError(state.name, stored.field, stored.value);
      for (const keyed of keys) {
        const owner = batchOwners.get(keyed.key);
        if (owner !== undefined && owner !== document._id) {
          const conflict = index.conflict(keyed);
          throw new DuplicateKeyError(state.name, conflict.field, conflict.value);
        }
        batchOwners.set(keyed.key, document._id);
      }
    }
  }
}

function checkUpdateDocument(collection: string, update: UpdateDocument): void {
  if (!isPlainObject(update) || Object.keys(update).length === 0) {
    throw new Error(`invalid update for collection ${collection}: expected an object of update operators such as $set`);
  }
  for (const [operator, fields] of Object.entries(update)) {
    if (!operator.startsWith('$')) {
      throw new Error(`invalid update for collection ${collection}: "${operator}" is not an update operator (replacing whole documents is not supported)`);
    }
    if (!isPlainObject(fields)) {
      throw new Error(`invalid update for collection ${collection}: ${operator} must map field paths to values`);
    }
  }
}
