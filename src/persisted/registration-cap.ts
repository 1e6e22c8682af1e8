import type { Collection } from '../store/port.js';

export interface RegistrationCapLimits {
  /** Most client-registered queries kept in the store. */
  maxQueries: number;
  /** Most bytes of client-registered query text kept in the store. */
  maxBytes: number;
}

/** The fields a client registration adds to its stored document (manifest ones carry `source: 'manifest'`). */
export interface ClientRegistrationFields {
  source: 'client';
  /** UTF-8 bytes of the query text. */
  bytes: number;
  /** When it was registered or, at the latest eviction pass, last used: ms since the epoch (fractional). */
  lastUsedAt: number;
}

/** An eviction pass brings the stored set down to this share of each limit, so passes are rare. */
const LOW_WATER_MARK = 0.9;

/** Milliseconds since the epoch, fractional and increasing within this process (no two registrations tie). */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Bounds the persisted queries clients register (APQ) in the store, evicting the least recently used.
 *
 * Why least recently used rather than expiry: a time limit does not bound how many a flood registers
 * within it, while a cap does; and evicting the least recently used keeps what well-behaved clients send
 * over and over, while a flood of one-off hashes mostly evicts its own. An evicted query costs its client
 * one round trip: the hash-only request answers PersistedQueryNotFound and the client sends it again in full.
 *
 * Recency is kept cheaply: a use is noted in memory, and written to the store (one updateMany) only at
 * an eviction pass, so a query used since the previous pass counts as used at that pass. Passes run when
 * this instance's running count passes a limit; each counts the store again (other instances may register
 * too) and evicts the oldest until both totals are at LOW_WATER_MARK of their limits. Queries registered
 * by manifest (safelist) are never counted nor evicted.
 */
export class RegistrationCap {
  /** Client-registered queries and bytes in the store as this instance knows them; undefined until first read. */
  private totals: { queries: number; bytes: number } | undefined;
  /** Hashes used since the last pass. */
  private readonly used = new Set<string>();
  private pass: Promise<void> | undefined;

  constructor(
    private readonly collection: Collection,
    private readonly limits: RegistrationCapLimits,
    /** Told which hashes a pass removed from the store, so they leave memory too. */
    private readonly onEvicted: (hashes: readonly string[]) => void,
  ) {}

  /** Fields to store with a new client registration. */
  fieldsFor(bytes: number): ClientRegistrationFields {
    return { source: 'client', bytes, lastUsedAt: preciseNow() };
  }

  /** A stored query was used. */
  noteUse(hash: string): void {
    this.used.add(hash);
  }

  /** A client registration of `bytes` was stored; evicts when a limit is passed. Store errors propagate. */
  async added(bytes: number): Promise<void> {
    if (this.totals !== undefined) {
      this.totals.queries += 1;
      this.totals.bytes += bytes;
    }
    if (this.totals !== undefined && !this.overLimit(this.totals)) return;
    // One pass at a time; registrations meanwhile are counted by the pass's own reading of the store.
    this.pass ??= this.evict().finally(() => {
      this.pass = undefined;
    });
    await this.pass;
  }

  private overLimit(totals: { queries: number; bytes: number }): boolean {
    return totals.queries > this.limits.maxQueries || totals.bytes > this.limits.maxBytes;
  }

  private async evict(): Promise<void> {
    if (this.used.size > 0) {
      const used = [...this.used];
      this.used.clear();
      await this.collection.updateMany({ _id: { $in: used }, source: 'client' }, { $set: { lastUsedAt: preciseNow() } });
    }
    const stored = await this.collection.find({ source: 'client' }, { sort: { lastUsedAt: 1 }, projection: { bytes: 1 } });
    const totals = { queries: stored.length, bytes: stored.reduce((sum, document) => sum + sizeOf(document.bytes), 0) };
    if (!this.overLimit(totals)) {
      this.totals = totals;
      return;
    }
    // At least one: the registration that started the pass stays (it is the most recent).
    const keepQueries = Math.max(1, Math.floor(this.limits.maxQueries * LOW_WATER_MARK));
    const keepBytes = Math.floor(this.limits.maxBytes * LOW_WATER_MARK);
    const evicted: string[] = [];
    for (const document of stored) {
      if (totals.queries <= keepQueries && totals.bytes <= keepBytes) break;
      evicted.push(document._id);
      totals.queries -= 1;
      totals.bytes -= sizeOf(document.bytes);
    }
    // A query promoted to the safelist meanwhile is no longer the client's: the filter keeps it.
    await this.collection.deleteMany({ _id: { $in: evicted }, source: 'client' });
    this.totals = totals;
    this.onEvicted(evicted);
  }
}

function sizeOf(bytes: unknown): number {
  return typeof bytes === 'number' && Number.isFinite(bytes) ? bytes : 0;
}
