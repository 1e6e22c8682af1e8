/**
 * Reads an export file (format.ts) into a store that holds no data, in batches, checking every line on
 * the way. It is all or nothing: when a line is wrong, or the file ends without its end line, every
 * document already written is deleted again (the store was empty), and the error names the line. Only if
 * that clean-up fails too (the store went away) are documents left behind, and the error says where.
 */
import { DuplicateKeyError, StoreUnavailableError, type Store, type StoredDocument } from '../store/port.js';
import {
  ACTIVE_DEFINITION_ID,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  isDefinitionCollection,
  type ExportHeader,
} from './format.js';
import type { Line } from './lines.js';
import { decodeDocument, UnsupportedValueError } from './values.js';

/** The file is wrong at `line`; nothing of it stays in the store. */
export class ImportFileError extends Error {
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
    this.name = 'ImportFileError';
  }
}

/** The store already holds data; `holdings` says which collections and how many documents. */
export class StoreNotEmptyError extends Error {
  constructor(readonly holdings: Record<string, number>) {
    const listed = Object.entries(holdings).map(([name, count]) => `${name} (${count})`).join(', ');
    super(`the store is not empty: ${listed} hold documents; import only into a fresh store (a new --data folder or an empty MongoDB database)`);
    this.name = 'StoreNotEmptyError';
  }
}

/** The import failed and its documents could not all be deleted again. */
export class ImportLeftoverError extends Error {
  constructor(failure: Error, collections: readonly string[], cleanup: unknown) {
    super(
      `${failure.message}; deleting the documents imported so far failed too (${cleanup instanceof Error ? cleanup.message : String(cleanup)}), ` +
        `so ${collections.join(', ')} may still hold some: empty those collections (or use a fresh store) before importing again`,
      { cause: failure },
    );
    this.name = 'ImportLeftoverError';
  }
}

export interface ImportResult {
  header: ExportHeader;
  /** Documents imported, by collection. */
  documents: Record<string, number>;
  /** Deletes the imported documents again (when the file's schema does not activate, say). */
  undo(failure: Error): Promise<void>;
}

export interface ImportOptions {
  /** Documents written per insert (default 1000). */
  batchSize?: number;
}

const DEFAULT_BATCH_SIZE = 1000;

/** The collections that hold documents, with their counts; the schema and lambda script do not count. */
export async function dataHoldings(store: Store): Promise<Record<string, number>> {
  const snapshot = await store.openSnapshot();
  try {
    const holdings: Record<string, number> = {};
    for (const { name, count } of snapshot.collections) {
      if (count > 0 && !isDefinitionCollection(name)) holdings[name] = count;
    }
    return holdings;
  } finally {
    await snapshot.close();
  }
}

/** Imports the file's documents (the caller activates its schema and lambda script from the header). */
export async function importDocuments(store: Store, lines: AsyncIterable<Line>, options: ImportOptions = {}): Promise<ImportResult> {
  const holdings = await dataHoldings(store);
  if (Object.keys(holdings).length > 0) throw new StoreNotEmptyError(holdings);
  const writer = new BatchWriter(store, options.batchSize ?? DEFAULT_BATCH_SIZE);
  try {
    const read = await readFile(lines, writer);
    return { ...read, undo: (failure) => writer.undo(failure) };
  } catch (error) {
    await writer.undo(error as Error);
    throw error;
  }
}

async function readFile(lines: AsyncIterable<Line>, writer: BatchWriter): Promise<Omit<ImportResult, 'undo'>> {
  let header: ExportHeader | undefined;
  let current: string | undefined;
  let ended: { line: number; documents: Record<string, number> } | undefined;
  let lastLine = 0;
  for await (const { number, text } of lines) {
    lastLine = number;
    if (ended) throw new ImportFileError(number, `follows the end line (line ${ended.line}); nothing may come after it`);
    const value = parseLine(number, text);
    if (header === undefined) {
      header = readHeader(number, value);
    } else if ('_id' in value) {
      if (current === undefined) throw new ImportFileError(number, 'is a document before any {"collection": …} line');
      await writer.add(current, number, readDocument(number, current, value));
    } else if ('collection' in value) {
      await writer.flush();
      current = readCollectionLine(number, value, writer);
    } else if ('end' in value) {
      await writer.flush();
      ended = { line: number, documents: readEndLine(number, value) };
    } else {
      throw new ImportFileError(number, 'is neither a document (it has no "_id") nor a {"collection": …} or {"end": …} line');
    }
  }
  if (header === undefined) throw new ImportFileError(1, `the file is empty; expected the header {"format":"${EXPORT_FORMAT}",…}`);
  if (ended === undefined) {
    throw new ImportFileError(lastLine, `the file ends here without its end line {"end":"${EXPORT_FORMAT}",…}: it is incomplete (was the export interrupted?)`);
  }
  checkCounts(ended.line, ended.documents, writer.counts);
  return { header, documents: writer.counts };
}

function parseLine(number: number, text: string): Record<string, unknown> {
  if (text.trim() === '') throw new ImportFileError(number, 'is empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportFileError(number, `is not JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ImportFileError(number, 'is not a JSON object');
  return value as Record<string, unknown>;
}

function readHeader(number: number, value: Record<string, unknown>): ExportHeader {
  if (value.format !== EXPORT_FORMAT) {
    throw new ImportFileError(number, `is not the header of an Autograph export (expected {"format":"${EXPORT_FORMAT}",…})`);
  }
  if (value.version !== EXPORT_VERSION) {
    throw new ImportFileError(number, `export format version ${JSON.stringify(value.version)} is not supported; this service reads version ${EXPORT_VERSION}`);
  }
  for (const field of ['schema', 'lambda'] as const) {
    if (value[field] !== null && typeof value[field] !== 'string') {
      throw new ImportFileError(number, `the header's "${field}" must be a string or null, got ${JSON.stringify(value[field])}`);
    }
  }
  return value as unknown as ExportHeader;
}

function readCollectionLine(number: number, value: Record<string, unknown>, writer: BatchWriter): string {
  const name = value.collection;
  if (typeof name !== 'string' || name === '') throw new ImportFileError(number, `"collection" must be a non-empty string, got ${JSON.stringify(name)}`);
  if (writer.counts[name] !== undefined) throw new ImportFileError(number, `collection ${name} appears a second time`);
  try {
    writer.open(name);
  } catch (error) {
    throw new ImportFileError(number, (error as Error).message);
  }
  return name;
}

function readDocument(number: number, collection: string, value: Record<string, unknown>): StoredDocument {
  if (typeof value._id !== 'string' || value._id === '') {
    throw new ImportFileError(number, `a document of ${collection} needs a non-empty string "_id", got ${JSON.stringify(value._id)}`);
  }
  if (isDefinitionCollection(collection) && value._id === ACTIVE_DEFINITION_ID) {
    throw new ImportFileError(number, `the active document of ${collection} is carried by the header ("schema" and "lambda"), not as data`);
  }
  try {
    return decodeDocument(value) as StoredDocument;
  } catch (error) {
    if (error instanceof UnsupportedValueError) throw new ImportFileError(number, `${collection} ${JSON.stringify(value._id)}: ${error.message}`);
    throw error;
  }
}

function readEndLine(number: number, value: Record<string, unknown>): Record<string, number> {
  const documents = value.documents;
  const valid =
    value.end === EXPORT_FORMAT &&
    documents !== null &&
    typeof documents === 'object' &&
    !Array.isArray(documents) &&
    Object.values(documents).every((count) => Number.isSafeInteger(count) && (count as number) >= 0);
  if (!valid) throw new ImportFileError(number, `is not a valid end line (expected {"end":"${EXPORT_FORMAT}","documents":{"<collection>":<count>,…}})`);
  return documents as Record<string, number>;
}

function checkCounts(line: number, declared: Record<string, number>, read: Record<string, number>): void {
  for (const name of new Set([...Object.keys(declared), ...Object.keys(read)])) {
    if ((declared[name] ?? 0) !== (read[name] ?? 0)) {
      throw new ImportFileError(line, `the end line counts ${declared[name] ?? 0} documents of ${name}, but the file holds ${read[name] ?? 0}: it is incomplete or was edited`);
    }
  }
}

/**
 * Collects documents per collection and writes them a batch at a time. The store held no data, so undoing
 * empties the collections written; but a definition collection may hold the running service's own
 * documents (its text tokeniser's record): those of the file replace them, and undoing deletes only those.
 */
class BatchWriter {
  readonly counts: Record<string, number> = {};
  /** Per collection written: the ids written to a definition collection, or `all`. */
  private readonly written = new Map<string, 'all' | string[]>();
  private batch: { line: number; document: StoredDocument }[] = [];
  private collection: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly batchSize: number,
  ) {}

  /** Starts the documents of `name` (throws when the store refuses the name). */
  open(name: string): void {
    this.store.collection(name);
    this.collection = name;
    this.counts[name] = 0;
  }

  async add(collection: string, line: number, document: StoredDocument): Promise<void> {
    this.batch.push({ line, document });
    this.counts[collection] = (this.counts[collection] ?? 0) + 1;
    if (this.batch.length >= this.batchSize) await this.flush();
  }

  async flush(): Promise<void> {
    const name = this.collection;
    const batch = this.batch;
    if (name === undefined || batch.length === 0) return;
    this.batch = [];
    const collection = this.store.collection(name);
    if (isDefinitionCollection(name)) {
      const ids = batch.map((item) => item.document._id);
      this.written.set(name, [...((this.written.get(name) as string[] | undefined) ?? []), ...ids]);
      await collection.deleteMany({ _id: { $in: ids } });
    } else {
      this.written.set(name, 'all');
    }
    try {
      await collection.insertMany(batch.map((item) => item.document));
      return;
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
    }
    // The batch was refused as a whole: the first document refused on its own names the line.
    for (const { line, document } of batch) {
      try {
        await collection.insertMany([document]);
      } catch (error) {
        if (error instanceof StoreUnavailableError) throw error;
        throw new ImportFileError(line, refusal(name, document, error));
      }
    }
    throw new Error(`the store refused a batch of ${name} whose documents it accepted one by one`);
  }

  /** Deletes what was written; throws ImportLeftoverError, naming the collections, when that fails. */
  async undo(failure: Error): Promise<void> {
    try {
      for (const [name, written] of this.written) {
        await this.store.collection(name).deleteMany(written === 'all' ? {} : { _id: { $in: written } });
      }
    } catch (cleanup) {
      throw new ImportLeftoverError(failure, [...this.written.keys()], cleanup);
    }
  }
}

function refusal(collection: string, document: StoredDocument, error: unknown): string {
  if (error instanceof DuplicateKeyError) {
    return error.field === '_id'
      ? `${collection} ${JSON.stringify(document._id)} appears twice`
      : `${collection} ${JSON.stringify(document._id)} repeats the value ${JSON.stringify(error.value)} of the unique field ${error.field}`;
  }
  return `${collection} ${JSON.stringify(document._id)} was refused by the store: ${error instanceof Error ? error.message : String(error)}`;
}
