import { randomBytes, randomInt } from 'node:crypto';

/** Makes the `_id`s of new objects (see objectIdSource). */
export type ObjectIdSource = () => string;

const COUNTER_LIMIT = 0x1000000;

/**
 * Ids for new objects in MongoDB's ObjectId form, as 24 hex digits: the time in seconds (4 bytes),
 * `processPart` (5 bytes, random per process) and a counter (3 bytes, starting after `counterStart`). Ids
 * of one source ascend in the order they are made, as one process's ObjectIds do (so the embedded store
 * finds natural order to be `_id` order, collection-state.ts). Each id is one concatenation of a prefix
 * made once per second with the counter's digits, without the 12-byte buffer and the per-byte pieces of
 * `new ObjectId().toHexString()` (an add of 100 objects makes 100 ids).
 */
export function objectIdSource(processPart: string, counterStart: number, nowMs: () => number = Date.now): ObjectIdSource {
  if (!/^[0-9a-f]{10}$/.test(processPart)) throw new Error(`the process part of an ObjectId is 10 hex digits, got ${JSON.stringify(processPart)}`);
  let counter = counterStart % COUNTER_LIMIT;
  let second = -1;
  let prefix = '';
  return () => {
    const now = Math.floor(nowMs() / 1000);
    if (now !== second) {
      second = now;
      prefix = now.toString(16).padStart(8, '0') + processPart;
    }
    counter = (counter + 1) % COUNTER_LIMIT;
    // The added digit keeps the counter's leading zeros: one slice instead of padStart's padding string.
    return prefix + (counter + COUNTER_LIMIT).toString(16).slice(1);
  };
}

/** This process's source of new object ids. */
export const newObjectId: ObjectIdSource = objectIdSource(randomBytes(5).toString('hex'), randomInt(COUNTER_LIMIT));
