import { LRUCache } from 'lru-cache';
import { DuplicateKeyError, SYSTEM_COLLECTIONS, type Collection, type Store } from '../store/port.js';
import { sha256Hex, utf8Bytes } from './hash.js';
import { RegistrationCap, type RegistrationCapLimits } from './registration-cap.js';

/**
 * A stored persisted query: `_id` is the lowercase hex SHA-256 of `query`. One a client registered (APQ)
 * also has ClientRegistrationFields (`source: 'client'`) and may be evicted; one registered by manifest
 * has `source: 'manifest'` (or, stored before sources were recorded, none) and is never evicted.
 */
export interface PersistedQueryDocument {
  _id: string;
  query: string;
  /** ISO-8601 UTC, when the first instance stored it. */
  createdAt: string;
  source?: 'client' | 'manifest';
  [field: string]: unknown;
}

export interface PersistedQueryCacheLimits {
  /** Most queries held in memory. */
  maxEntries: number;
  /** Most bytes (UTF-8 query text plus the 64-byte hash) held in memory. */
  maxBytes: number;
}

export interface PersistedQueryCacheStats {
  /** Lookups answered from memory. */
  memoryHits: number;
  /**
   * Lookups that missed memory and found the query in the store (with `manifestOnly`, a client's
   * registration in memory counts as a miss of memory, and one found in the store as a store hit).
   */
  storeHits: number;
  /** Lookups found in neither. */
  misses: number;
  /** Queries held in memory now, and their size in bytes. */
  entries: number;
  bytes: number;
}

export interface RegistrationCounts {
  /** Queries this call stored. */
  added: number;
  /** Queries that were stored already (by an earlier call or another instance). */
  existing: number;
}

const HASH_BYTES = 64;

/**
 * A query held in memory, with whether an administrator registered it (by manifest, or stored before
 * sources were recorded) rather than a client (APQ): safelist mode runs only the former.
 */
interface Remembered {
  query: string;
  manifest: boolean;
}

export interface PersistedQueryLookupOptions {
  /**
   * Safelist mode: only a query an administrator registered counts; a client's registration answers
   * `undefined`, as an unregistered hash does. Default false: any registration counts.
   */
  manifestOnly?: boolean;
}

/**
 * Hash → query text, in two levels: a bounded LRU in memory in front of the store's persisted query
 * collection. The store is the truth, so hashes survive restarts and every instance on the same store
 * sees the same set; the LRU only saves the round trip for hot queries.
 */
export class PersistedQueryCache {
  private readonly memory: LRUCache<string, Remembered>;
  private readonly collection: Collection;
  /** Store lookups under way, so concurrent requests for one cold hash share a round trip. */
  private readonly loading = new Map<string, Promise<Remembered | undefined>>();
  private readonly counters = { memoryHits: 0, storeHits: 0, misses: 0 };
  /** Bounds what clients register in the store; without it, client registrations are kept forever. */
  private readonly cap: RegistrationCap | undefined;

  constructor(store: Store, limits: PersistedQueryCacheLimits, registrationLimits?: RegistrationCapLimits) {
    this.collection = store.collection(SYSTEM_COLLECTIONS.persistedQueries);
    this.memory = new LRUCache<string, Remembered>({
      max: limits.maxEntries,
      maxSize: limits.maxBytes,
      sizeCalculation: (entry) => utf8Bytes(entry.query) + HASH_BYTES,
    });
    this.cap = registrationLimits && new RegistrationCap(this.collection, registrationLimits, (hashes) => {
      for (const hash of hashes) this.memory.delete(hash);
    });
  }

  /**
   * The query registered under `hash` (lowercase hex), or `undefined`; with `manifestOnly`, only one an
   * administrator registered. Store errors propagate.
   *
   * With `manifestOnly`, a client registration held in memory is looked up in the store again, as an
   * unregistered hash is: a manifest upload (on any instance) may have made it an administrator's since.
   */
  async get(hash: string, options: PersistedQueryLookupOptions = {}): Promise<string | undefined> {
    const manifestOnly = options.manifestOnly ?? false;
    const remembered = this.memory.get(hash);
    if (remembered !== undefined && (remembered.manifest || !manifestOnly)) {
      this.counters.memoryHits += 1;
      this.cap?.noteUse(hash);
      return remembered.query;
    }
    let pending = this.loading.get(hash);
    if (pending === undefined) {
      pending = this.load(hash).finally(() => this.loading.delete(hash));
      this.loading.set(hash, pending);
    }
    const found = await pending;
    return found !== undefined && (found.manifest || !manifestOnly) ? found.query : undefined;
  }

  /** Whether `hash` is in memory; no store round trip, no counters. */
  isRemembered(hash: string): boolean {
    return this.memory.has(hash);
  }

  /**
   * Stores `query` under `hash`, as a client's registration (the caller has verified that `hash` is its
   * SHA-256); past the registration limits, the least recently used client registrations are evicted. A
   * duplicate from a racing instance counts as already registered. Returns whether this call stored it.
   */
  async register(hash: string, query: string): Promise<boolean> {
    if (this.memory.has(hash)) {
      return false;
    }
    const bytes = utf8Bytes(query);
    let added = true;
    try {
      // Marked as a client's even without registration limits: a document without `source` counts as an
      // administrator's (stored before sources were recorded), and would run in safelist mode.
      await this.collection.insertMany([{ ...documentFor(hash, query), source: 'client', ...this.cap?.fieldsFor(bytes) }]);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) {
        throw error;
      }
      added = false;
    }
    // Held as a client's even if a racing registration was a manifest's: in safelist mode a client
    // registration in memory is looked up in the store again, so this errs on the safe side.
    this.memory.set(hash, { query, manifest: false });
    if (added) await this.cap?.added(bytes);
    return added;
  }

  /**
   * Stores every `{ hash, query }` not stored yet, all or nothing (one `insertMany`). If another
   * instance stores some of them meanwhile, the rest is inserted again, a few times at most.
   */
  async registerAll(entries: ReadonlyArray<{ hash: string; query: string }>): Promise<RegistrationCounts> {
    const byHash = new Map(entries.map((entry) => [entry.hash, entry.query]));
    const hashes = [...byHash.keys()];
    const attempts = 3;
    for (let attempt = 1; ; attempt += 1) {
      const stored = await this.collection.find({ _id: { $in: hashes } }, { projection: { _id: 1, source: 1 } });
      const storedHashes = new Set(stored.map((document) => document._id));
      const missing = hashes.filter((hash) => !storedHashes.has(hash));
      const clientRegistered = stored.filter((document) => document.source === 'client').map((document) => document._id);
      try {
        if (missing.length > 0) {
          await this.collection.insertMany(missing.map((hash) => ({ ...documentFor(hash, byHash.get(hash)!), source: 'manifest' })));
        }
        // A query a client registered before is now on the safelist: no longer evictable.
        if (clientRegistered.length > 0) {
          await this.collection.updateMany({ _id: { $in: clientRegistered }, source: 'client' }, { $set: { source: 'manifest' } });
        }
      } catch (error) {
        if (error instanceof DuplicateKeyError && attempt < attempts) {
          continue;
        }
        throw error;
      }
      // Every listed hash is now stored as a manifest registration (a client's was promoted above).
      for (const [hash, query] of byHash) {
        this.memory.set(hash, { query, manifest: true });
      }
      return { added: missing.length, existing: hashes.length - missing.length };
    }
  }

  stats(): PersistedQueryCacheStats {
    return { ...this.counters, entries: this.memory.size, bytes: this.memory.calculatedSize };
  }

  private async load(hash: string): Promise<Remembered | undefined> {
    const [document] = await this.collection.find({ _id: hash }, { limit: 1 });
    if (document === undefined) {
      this.counters.misses += 1;
      return undefined;
    }
    const query = document.query;
    // The store is shared and outlives this process: never run text that is not what the hash names.
    if (typeof query !== 'string' || sha256Hex(query) !== hash) {
      throw new Error(
        `the stored persisted query ${hash} in ${SYSTEM_COLLECTIONS.persistedQueries} is corrupt: ` +
          'its query is not a string whose SHA-256 is its _id',
      );
    }
    this.counters.storeHits += 1;
    this.cap?.noteUse(hash);
    const entry = { query, manifest: isManifestRegistration(document.source) };
    this.memory.set(hash, entry);
    return entry;
  }
}

/**
 * Whether a stored document's `source` says an administrator registered it: `'manifest'`, or none at all
 * (stored before sources were recorded). Anything else, `'client'` above all, is not on the safelist.
 */
function isManifestRegistration(source: unknown): boolean {
  return source === undefined || source === null || source === 'manifest';
}

function documentFor(hash: string, query: string): PersistedQueryDocument {
  return { _id: hash, query, createdAt: new Date().toISOString() };
}
