/**
 * The export file: one NDJSON stream (UTF-8, one JSON value per line), in this order:
 *
 *   {"format":"autograph-export","version":1,"exportedAt":"…","store":"embedded","consistency":"point-in-time","schema":"type Task …","lambda":null}
 *   {"collection":"Task"}
 *   {"_id":"65a1…","title":"…"}            one line per document of Task (values as in values.ts)
 *   {"collection":"User"}
 *   …
 *   {"end":"autograph-export","documents":{"Task":2,"User":1}}
 *
 * The header carries the active schema and lambda script (null when there is none); the documents that
 * hold them (`_id: "active"` of their system collections) are not repeated as data. Every collection
 * that holds documents follows, system collections included (persisted query hashes, the text
 * tokeniser's record), each once, sorted by name. The end line counts the documents of each collection:
 * a file without it, or whose counts differ, is incomplete and is refused as a whole.
 */
import { SYSTEM_COLLECTIONS, type SnapshotConsistency } from '../store/port.js';

export const EXPORT_FORMAT = 'autograph-export';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  /** The backend it came from: `embedded` or `mongodb`. */
  store: string;
  consistency: SnapshotConsistency;
  schema: string | null;
  lambda: string | null;
}

export interface CollectionLine {
  collection: string;
}

export interface EndLine {
  end: typeof EXPORT_FORMAT;
  documents: Record<string, number>;
}

/** The collections whose single document (`_id: "active"`) the header carries as `schema` and `lambda`. */
export const DEFINITION_COLLECTIONS = { schema: SYSTEM_COLLECTIONS.schema, lambda: SYSTEM_COLLECTIONS.lambda } as const;

/**
 * Collections that are not data: the two definition collections (carried by the header) and the store's own
 * bookkeeping (isExportedCollection). None of them counts when deciding whether an import target is empty.
 */
export function isDefinitionCollection(name: string): boolean {
  return name === DEFINITION_COLLECTIONS.schema || name === DEFINITION_COLLECTIONS.lambda || !isExportedCollection(name);
}

/**
 * Whether an export carries the collection. The schema history stays with the store it was made in: the import
 * target starts its own history when it activates the file's schema (a backup folder, a copy of the store,
 * keeps it).
 */
export function isExportedCollection(name: string): boolean {
  return !STORE_LOCAL_COLLECTIONS.has(name);
}

/** The schema history, and the write counters other instances' change feeds read (MongoDB standalone). */
const STORE_LOCAL_COLLECTIONS: ReadonlySet<string> = new Set([SYSTEM_COLLECTIONS.schemaHistory, SYSTEM_COLLECTIONS.changes]);

/** The id of the one document of each definition collection. */
export const ACTIVE_DEFINITION_ID = 'active';
