/**
 * The most ids one store command carries in an `$in` list or a `$literal` array. MongoDB refuses a
 * command larger than 16 MB (`maxBsonObjectSize`); a generated id costs about 35 bytes as a BSON array
 * element, so an unbounded list breaks at roughly 400,000 ids, and inside a transaction a huge `$in`
 * delete also makes a huge transaction. 10,000 ids keep every such command under 0.5 MB: requests over
 * more objects run one command per batch.
 */
export const ID_BATCH_SIZE = 10_000;

/** `items` cut into consecutive batches of at most `size` (none for an empty list). */
export function idBatches<T>(items: readonly T[], size: number = ID_BATCH_SIZE): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`idBatches: size must be a positive integer, got ${size}`);
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}
