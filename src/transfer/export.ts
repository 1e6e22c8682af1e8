/**
 * Writes a StoreSnapshot as an export file (format.ts), as text chunks of about `chunkChars` characters:
 * the caller writes each chunk before asking for the next, so memory holds one batch of documents and one
 * chunk whatever the size of the data. A chunk also ends with each collection.
 */
import type { StoredDocument, StoreSnapshot } from '../store/port.js';
import {
  ACTIVE_DEFINITION_ID,
  DEFINITION_COLLECTIONS,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  isDefinitionCollection,
  isExportedCollection,
  type EndLine,
  type ExportHeader,
} from './format.js';
import { encodeDocument, UnsupportedValueError } from './values.js';

export interface ExportOptions {
  /** `store.kind`, written into the header. */
  storeKind: string;
  /** Documents read from the snapshot at a time (default 1000). */
  batchSize?: number;
  /** Size of the chunks yielded, in characters (default 256 Ki). */
  chunkChars?: number;
  now?: () => Date;
}

/** A document the format cannot hold; says which collection and object. */
export class ExportValueError extends Error {
  constructor(collection: string, id: string, cause: UnsupportedValueError) {
    super(`cannot export ${collection} ${JSON.stringify(id)}: ${cause.message}`);
    this.name = 'ExportValueError';
  }
}

const DEFAULT_BATCH_SIZE = 1000;
const DEFAULT_CHUNK_CHARS = 256 * 1024;

export async function* exportChunks(snapshot: StoreSnapshot, options: ExportOptions): AsyncGenerator<string> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const chunkChars = options.chunkChars ?? DEFAULT_CHUNK_CHARS;
  let chunk: string[] = [];
  let chunkLength = 0;
  const add = (line: string): boolean => {
    chunk.push(line, '\n');
    chunkLength += line.length + 1;
    return chunkLength >= chunkChars;
  };
  const take = (): string => {
    const text = chunk.join('');
    chunk = [];
    chunkLength = 0;
    return text;
  };

  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: (options.now?.() ?? new Date()).toISOString(),
    store: options.storeKind,
    consistency: snapshot.consistency,
    schema: await definitionText(snapshot, DEFINITION_COLLECTIONS.schema),
    lambda: await definitionText(snapshot, DEFINITION_COLLECTIONS.lambda),
  };
  add(JSON.stringify(header));
  const counts: Record<string, number> = {};
  for (const { name } of snapshot.collections) {
    if (!isExportedCollection(name)) continue;
    // A definition collection's active document is in the header; its others (the text tokeniser's
    // record, say) follow as data, so an import need not rebuild what they describe. A collection
    // without documents to write gets no line.
    const isDefinition = isDefinitionCollection(name);
    let count = 0;
    for await (const batch of snapshot.documents(name, batchSize)) {
      for (const document of batch) {
        if (isDefinition && document._id === ACTIVE_DEFINITION_ID) continue;
        if (count === 0) add(JSON.stringify({ collection: name }));
        count += 1;
        if (add(encodeLine(name, document))) yield take();
      }
    }
    if (count > 0) {
      counts[name] = count;
      yield take(); // each collection goes out whole before the next is read
    }
  }
  const end: EndLine = { end: EXPORT_FORMAT, documents: counts };
  add(JSON.stringify(end));
  yield take();
}

function encodeLine(collection: string, document: StoredDocument): string {
  try {
    return encodeDocument(document);
  } catch (error) {
    if (error instanceof UnsupportedValueError) throw new ExportValueError(collection, String(document._id), error);
    throw error;
  }
}

/** The text of the definition collection's active document in the snapshot, or null. */
async function definitionText(snapshot: StoreSnapshot, collection: string): Promise<string | null> {
  if (!snapshot.collections.some((info) => info.name === collection)) return null;
  for await (const batch of snapshot.documents(collection, DEFAULT_BATCH_SIZE)) {
    const active = batch.find((document) => document._id === ACTIVE_DEFINITION_ID);
    if (active && typeof active.text === 'string') return active.text;
  }
  return null;
}
