import { ObjectId } from 'mongodb';

/**
 * The text of a new ObjectId (24 hex digits, ascending in creation order, sharing the driver's counter
 * with every other ObjectId of the process), written in one piece. `ObjectId#toHexString` joins twelve
 * two-digit pieces into a string that every later hash or comparison must first flatten: the new
 * object's first lookup in the store cost about twice as much as a lookup of an existing id.
 */
export function newObjectIdText(): string {
  const bytes = ObjectId.generate();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
