import type { ClientSession } from 'mongodb';
import type { Transaction } from '../port.js';

/**
 * Maps the port's opaque transaction handles to driver sessions. A handle without a session belongs to a
 * "transaction" on a standalone server, where the work runs without one.
 */
export class TransactionRegistry {
  private nextId = 1;
  private readonly running = new Map<number, ClientSession | undefined>();

  begin(session: ClientSession | undefined): Transaction {
    const handle: Transaction = Object.freeze({ id: this.nextId++ });
    this.running.set(handle.id, session);
    return handle;
  }

  /** The session that operations under `tx` must carry; throws for a handle that is not running. */
  sessionOf(tx: Transaction | undefined): ClientSession | undefined {
    if (tx === undefined) {
      return undefined;
    }
    if (!this.running.has(tx.id)) {
      throw new Error(`transaction ${tx.id} is not running (it has already finished, or belongs to another store)`);
    }
    return this.running.get(tx.id);
  }

  end(tx: Transaction): void {
    this.running.delete(tx.id);
  }
}
