/**
 * Server-side cursors: a command's results are handed out in batches (the first with the command's reply,
 * the rest through `getMore`), each batch at most `batchSize` documents and at most 16 MiB, as mongod does.
 */
import { BSON, Long } from 'mongodb';
import { CommandError } from './errors';
import type { Document } from './values';

/** mongod's first-batch default for find and aggregate. */
export const DEFAULT_FIRST_BATCH = 101;
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

interface OpenCursor {
  namespace: string;
  remaining: Document[];
}

export type CursorReply = {
  cursor: { id: Long; ns: string; firstBatch?: Document[]; nextBatch?: Document[] };
  ok: 1;
};

export class CursorRegistry {
  private readonly open = new Map<string, OpenCursor>();
  private lastId = 0;

  /** The reply to a command that produced `documents`; a cursor stays open while documents remain. */
  firstBatch(namespace: string, documents: Document[], batchSize: number = DEFAULT_FIRST_BATCH, singleBatch = false): CursorReply {
    const batch = takeBatch(documents, batchSize);
    const remaining = documents.slice(batch.length);
    let id = Long.ZERO;
    if (remaining.length > 0 && !singleBatch) {
      this.lastId += 1;
      id = Long.fromNumber(this.lastId);
      this.open.set(id.toString(), { namespace, remaining });
    }
    return { cursor: { id, ns: namespace, firstBatch: batch }, ok: 1 };
  }

  /** `getMore`: the next batch (all that is left when batchSize is 0); the cursor closes when exhausted. */
  nextBatch(id: Long, collection: string, database: string, batchSize = 0): CursorReply {
    const cursor = this.open.get(id.toString());
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id.toString()} not found`);
    if (cursor.namespace !== `${database}.${collection}`) {
      throw new CommandError('Unauthorized', `Requested getMore on namespace '${database}.${collection}', but cursor belongs to a different namespace ${cursor.namespace}`);
    }
    const batch = takeBatch(cursor.remaining, batchSize > 0 ? batchSize : Number.MAX_SAFE_INTEGER);
    cursor.remaining = cursor.remaining.slice(batch.length);
    const exhausted = cursor.remaining.length === 0;
    if (exhausted) this.open.delete(id.toString());
    return { cursor: { id: exhausted ? Long.ZERO : id, ns: cursor.namespace, nextBatch: batch }, ok: 1 };
  }

  /** `killCursors`: which of `ids` were open (and are now closed) and which were not. */
  kill(ids: Long[]): { killed: Long[]; notFound: Long[] } {
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const id of ids) (this.open.delete(id.toString()) ? killed : notFound).push(id);
    return { killed, notFound };
  }

  get openCount(): number {
    return this.open.size;
  }
}

function takeBatch(documents: Document[], batchSize: number): Document[] {
  const batch: Document[] = [];
  let bytes = 0;
  for (const document of documents) {
    if (batch.length >= batchSize) break;
    const size = BSON.calculateObjectSize(document);
    if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
    batch.push(document);
    bytes += size;
  }
  return batch;
}
