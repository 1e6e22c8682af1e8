import type { FieldModel } from '../../sdl/model.js';
import type { Store, Transaction, UpdateDocument } from '../../store/port.js';
import type { EdgeWatch } from './edges.js';
import { storedPath } from '../../query/schema-facts.js';

/**
 * Edges of a field that is its own inverse (`isSymmetricRelation`): a → b means b → a, so every write
 * touches both ends, and reads, filters and deletes of the stored field see the same edge from either
 * side. A single-valued one is one-to-one: whoever was linked to either end before is detached. The
 * watch (the reference guard) hears of every end a write changed, as for ordinary edges.
 */

export async function linkSymmetricEdge(store: Store, tx: Transaction, typeName: string, field: FieldModel, a: string, b: string, watch?: EdgeWatch): Promise<void> {
  const collection = store.collection(typeName);
  const name = storedPath(field);
  const ends = b === a ? [a] : [a, b];
  if (!field.list) {
    await watch?.beforeDetach(typeName, field, b, a);
    if (b !== a) await watch?.beforeDetach(typeName, field, a, b);
    await collection.updateMany({ [name]: { $in: ends }, _id: { $nin: ends } }, { $unset: { [name]: '' } }, { tx });
  }
  const pairs: [string, string][] = b === a ? [[a, a]] : [[a, b], [b, a]];
  for (const [from, to] of pairs) {
    const update: UpdateDocument = field.list ? { $addToSet: { [name]: to } } : { $set: { [name]: to } };
    const result = await collection.updateMany({ _id: from }, update, { tx });
    if (result.modified > 0) await watch?.changed(typeName, from, field);
  }
}

export async function unlinkSymmetricEdge(store: Store, tx: Transaction, typeName: string, field: FieldModel, a: string, b: string, watch?: EdgeWatch): Promise<void> {
  const collection = store.collection(typeName);
  const name = storedPath(field);
  for (const [from, to] of [[a, b], [b, a]] as const) {
    const result = field.list
      ? await collection.updateMany({ _id: from }, { $pull: { [name]: to } }, { tx })
      : await collection.updateMany({ _id: from, [name]: to }, { $unset: { [name]: '' } }, { tx });
    if (result.modified > 0) await watch?.changed(typeName, from, field);
  }
}
