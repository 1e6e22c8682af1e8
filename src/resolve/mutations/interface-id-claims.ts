import { SYSTEM_COLLECTIONS, type Store, type Transaction } from '../../store/port.js';
import { idBatches } from '../../store/id-batches.js';

/**
 * Makes two mutations running at once conflict when they give one `@id(interface: true)` value to objects
 * of two different implementing types. The check (interface-ids.ts) reads the other types' collections,
 * and two transactions that both read before either commits would both pass. So a mutation also writes,
 * and deletes again in the same transaction, one claim document per value it gives, keyed by interface,
 * field and value: MongoDB refuses the second of two concurrent transactions writing one document (a
 * transient write conflict; the transaction is run again, and its check then sees the first one's object).
 * The embedded store runs transactions one at a time, so there the claims only cost the two writes.
 * Nothing stays in the collection.
 */
export async function writeInterfaceIdClaims(store: Store, tx: Transaction, claimed: ReadonlySet<string>): Promise<void> {
  if (claimed.size === 0) return;
  const collection = store.collection(SYSTEM_COLLECTIONS.interfaceIdClaims);
  for (const batch of idBatches([...claimed])) {
    await collection.insertMany(batch.map((key) => ({ _id: key })), { tx });
    await collection.deleteMany({ _id: { $in: batch } }, { tx });
  }
}
