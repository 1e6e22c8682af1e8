import { createHash } from 'node:crypto';
import { DuplicateKeyError, SYSTEM_COLLECTIONS, type Store, type StoredDocument, type Transaction } from '../store/port.js';

/** One activated schema, as `GET /admin/schema/history` lists it (its text is read one revision at a time). */
export interface SchemaRevision {
  /** 1 for the first schema activated with history kept, then one more per activation. */
  revision: number;
  /** SHA-256 of the schema text, hex. */
  hash: string;
  /** ISO 8601. */
  activatedAt: string;
  /** The lambda script stored when the schema was activated: its stored revision and the SHA-256 of its text. */
  lambda?: { revision: string; hash: string };
  /** Set when the activation re-activated an earlier revision (a rollback). */
  restoredFrom?: number;
  /** Set when the upload said `force` to override stored data it makes unreadable. */
  forced?: true;
}

/** How an activation came about, kept in its history entry. */
export interface ActivationOrigin {
  restoredFrom?: number;
  forced?: boolean;
}

type StoredRevision = StoredDocument & SchemaRevision & { text: string };

/** Zero-padded, so `_id` order is revision order and a second writer of the same revision collides on `_id`. */
const ID_DIGITS = 12;
const SUMMARY_FIELDS = { revision: 1, hash: 1, activatedAt: 1, lambda: 1, restoredFrom: 1, forced: 1 } as const;

export function schemaTextHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function idOf(revision: number): string {
  return String(revision).padStart(ID_DIGITS, '0');
}

/**
 * Appends `text` as the next revision, inside the transaction that stores it as the active schema, unless
 * it is the text of the latest revision (then that revision is answered). Two
 * instances appending at once would pick the same revision: the second insert fails with
 * DuplicateKeyError, and its caller runs the whole transaction again (see `withRevisionRetry`).
 */
export async function appendSchemaRevision(store: Store, tx: Transaction, text: string, origin: ActivationOrigin, activatedAt: string): Promise<number> {
  const history = store.collection(SYSTEM_COLLECTIONS.schemaHistory);
  const [latest] = await history.find({}, { sort: { _id: -1 }, limit: 1, projection: { revision: 1, hash: 1 } }, { tx });
  const hash = schemaTextHash(text);
  // The same text again (a restart with the same --schema, a repeated upload) is the same revision.
  if (typeof latest?.revision === 'number' && latest.hash === hash) return latest.revision;
  const revision = typeof latest?.revision === 'number' ? latest.revision + 1 : 1;
  const lambda = await storedLambda(store, tx);
  const entry: StoredRevision = {
    _id: idOf(revision),
    revision,
    hash,
    activatedAt,
    text,
    ...(lambda ? { lambda } : {}),
    ...(origin.restoredFrom !== undefined ? { restoredFrom: origin.restoredFrom } : {}),
    ...(origin.forced ? { forced: true as const } : {}),
  };
  await history.insertMany([entry], { tx });
  return revision;
}

/** Runs `work` again (up to 3 times) when another instance took the revision number it appended. */
export async function withRevisionRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const lost = error instanceof DuplicateKeyError && error.collection === SYSTEM_COLLECTIONS.schemaHistory;
      if (!lost || attempt === 3) throw error;
    }
  }
}

async function storedLambda(store: Store, tx: Transaction): Promise<SchemaRevision['lambda']> {
  const [document] = await store.collection(SYSTEM_COLLECTIONS.lambda).find({ _id: 'active' }, {}, { tx });
  if (typeof document?.text !== 'string') return undefined;
  return { revision: String(document.revision ?? document.updatedAt), hash: schemaTextHash(document.text) };
}

/** The newest `limit` revisions, newest first, without their texts. */
export async function listSchemaRevisions(store: Store, limit: number): Promise<SchemaRevision[]> {
  const documents = await store.collection(SYSTEM_COLLECTIONS.schemaHistory).find({}, { sort: { _id: -1 }, limit, projection: SUMMARY_FIELDS });
  return documents.map(summaryOf);
}

/** One revision with its schema text, or undefined when there is none with that number. */
export async function readSchemaRevision(store: Store, revision: number): Promise<(SchemaRevision & { text: string }) | undefined> {
  const [document] = await store.collection(SYSTEM_COLLECTIONS.schemaHistory).find({ _id: idOf(revision) });
  if (document === undefined || typeof document.text !== 'string') return undefined;
  return { ...summaryOf(document), text: document.text };
}

function summaryOf(document: StoredDocument): SchemaRevision {
  const { _id: _ignored, text: _text, ...summary } = document;
  return summary as unknown as SchemaRevision;
}
