import type { FieldModel } from '../../sdl/model.js';
import type { Store, Transaction } from '../../store/port.js';

/**
 * Edges of a field that is its own inverse (`isSymmetricRelation`): a → b means b → a, so every write
 * touches both ends, and reads, filters and deletes of the stored field see the same edge from either
 * side. A single-valued one is one-to-one: whoever was linked to either end before is detached.
 */

export async function linkSymmetricEdge(store: Store, tx: Transaction, typeName: string, field: FieldModel, a: string, b: string): Promise<void> {
  const collection = store.collection(typeName);
  const name = field.name;
  if (field.list) {
    await collection.updateMany({ _id: a }, { $addToSet: { [name]: b } }, tx);
    if (b !== a) await collection.updateMany({ _id: b }, { $addToSet: { [name]: a } }, tx);
    return;
  }
  const ends = [...new Set([a, b])];
  await collection.updateMany({ [name]: { $in: ends }, _id: { $nin: ends } }, { $unset: { [name]: '' } }, tx);
  await collection.updateMany({ _id: a }, { $set: { [name]: b } }, tx);
  if (b !== a) await collection.updateMany({ _id: b }, { $set: { [name]: a } }, tx);
}

export async function unlinkSymmetricEdge(store: Store, tx: Transaction, typeName: string, field: FieldModel, a: string, b: string): Promise<void> {
  const collection = store.collection(typeName);
  const name = field.name;
  for (const [from, to] of [[a, b], [b, a]] as const) {
    if (field.list) await collection.updateMany({ _id: from }, { $pull: { [name]: to } }, tx);
    else await collection.updateMany({ _id: from, [name]: to }, { $unset: { [name]: '' } }, tx);
  }
}
