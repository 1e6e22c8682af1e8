/**
 * What the write-ahead log holds: one record per committed transaction or auto-committed operation.
 * Document writes are logged as after-images (the whole new document, or its deletion), so replay needs
 * no query evaluation and applying a record twice is harmless.
 */
import type { IndexSpec, StoredDocument } from '../port.js';

export type LogOperation =
  | { op: 'put'; collection: string; documents: StoredDocument[] }
  | { op: 'delete'; collection: string; ids: string[] }
  | { op: 'createIndex'; collection: string; spec: IndexSpec }
  | { op: 'dropIndex'; collection: string; name: string }
  | { op: 'dropCollection'; collection: string };

export interface LogRecord {
  /** Increases by one per record; a snapshot remembers the last sequence it contains. */
  seq: number;
  ops: LogOperation[];
}

export function isLogRecord(value: unknown): value is LogRecord {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Partial<LogRecord>;
  return typeof record.seq === 'number' && Array.isArray(record.ops) && record.ops.every(isLogOperation);
}

function isLogOperation(value: unknown): value is LogOperation {
  if (value === null || typeof value !== 'object') return false;
  const op = value as Record<string, unknown>;
  if (typeof op.collection !== 'string') return false;
  switch (op.op) {
    case 'put':
      return Array.isArray(op.documents);
    case 'delete':
      return Array.isArray(op.ids);
    case 'createIndex':
      return op.spec !== null && typeof op.spec === 'object';
    case 'dropIndex':
      return typeof op.name === 'string';
    case 'dropCollection':
      return true;
    default:
      return false;
  }
}
