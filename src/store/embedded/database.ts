/** All collections of an open store, and the raw application of log operations (replay). */
import type { IndexSpec } from '../port.js';
import { CollectionState } from './collection-state.js';
import type { LogOperation } from './log-records.js';

export class Database {
  private readonly collections = new Map<string, CollectionState>();

  get(name: string): CollectionState | undefined {
    return this.collections.get(name);
  }

  ensure(name: string): CollectionState {
    let state = this.collections.get(name);
    if (!state) this.collections.set(name, (state = new CollectionState(name)));
    return state;
  }

  all(): CollectionState[] {
    return Array.from(this.collections.values());
  }

  /** Forgets the collection, documents and indexes; returns its state (to put back on rollback), if it existed. */
  remove(name: string): CollectionState | undefined {
    const state = this.collections.get(name);
    this.collections.delete(name);
    return state;
  }

  /** Puts back a state `remove` returned. */
  restore(state: CollectionState): void {
    this.collections.set(state.name, state);
  }

  /** Applies a logged operation without constraint checks: it was valid when it was committed. */
  apply(operation: LogOperation): void {
    if (operation.op === 'dropCollection') {
      this.remove(operation.collection);
      return;
    }
    const state = this.ensure(operation.collection);
    switch (operation.op) {
      case 'put':
        for (const document of operation.documents) state.put(document);
        break;
      case 'delete':
        for (const id of operation.ids) state.remove(id);
        break;
      case 'createIndex':
        state.dropIndex(operation.spec.name);
        state.addIndex(operation.spec as IndexSpec, false);
        break;
      case 'dropIndex':
        state.dropIndex(operation.name);
        break;
    }
  }
}

const INVALID_NAME = /[\0$]/;

/** Rejects collection names MongoDB would reject too, so both backends accept the same names. */
export function assertCollectionName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new Error(`invalid collection name ${JSON.stringify(name)}: expected a non-empty string`);
  }
  if (INVALID_NAME.test(name) || name.startsWith('system.')) {
    throw new Error(`invalid collection name ${JSON.stringify(name)}: it must not contain "$" or NUL or start with "system."`);
  }
}
