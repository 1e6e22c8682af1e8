import { KeySetUnavailableError } from '../errors.js';
import type { VerificationKey } from '../jwt/verify.js';
import { fetchKeySet, type FetchedKeySet, type FetchLimits } from './fetch-key-set.js';
import { boundedLifetimeSeconds, type LifetimeBounds } from './freshness.js';

/** How key sets are fetched and kept. */
export interface KeySetPolicy extends FetchLimits, LifetimeBounds {
  /**
   * The least time between two fetches of one URL that a token with an unknown `kid` may cause, and
   * between a failed fetch and the next try: a flood of made-up `kid`s costs the key server one request
   * per period.
   */
  refreshCooldownMs: number;
  /** How long past its lifetime a fetched set keeps serving while its URL cannot be fetched. */
  staleIfErrorSeconds: number;
}

export const DEFAULT_KEY_SET_POLICY: Readonly<KeySetPolicy> = Object.freeze({
  timeoutMs: 5_000,
  maxBytes: 256 * 1024,
  defaultSeconds: 600,
  minSeconds: 30,
  maxSeconds: 24 * 60 * 60,
  refreshCooldownMs: 30_000,
  staleIfErrorSeconds: 60 * 60,
});

export type KeySetFetcher = (url: string, limits: FetchLimits) => Promise<FetchedKeySet>;

/** One JWK Set URL: its keys as last fetched, refreshed when they expire or a token names an unknown `kid`. */
export class RemoteKeySet {
  private current?: { keys: Map<string, VerificationKey>; expiresAtMs: number };
  private lastAttemptMs = Number.NEGATIVE_INFINITY;
  private lastFailure?: string;
  private inFlight?: Promise<void>;

  constructor(
    readonly url: string,
    private readonly policy: KeySetPolicy,
    private readonly fetcher: KeySetFetcher = fetchKeySet,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The key named `kid`, or undefined when the set has none (after a refresh, unless one ran within the
   * cooldown). Throws `KeySetUnavailableError` when no usable set can be had.
   */
  async keyFor(kid: string): Promise<VerificationKey | undefined> {
    return (await this.keys()).get(kid) ?? (await this.keysAfterUnknownKid()).get(kid);
  }

  /** The keys, fetched again first when their lifetime is over. Throws `KeySetUnavailableError` when no usable set can be had. */
  async keys(): Promise<ReadonlyMap<string, VerificationKey>> {
    if (!this.current || this.now() >= this.current.expiresAtMs) {
      if (this.inFlight || this.lastFailure === undefined || this.cooldownOver()) await this.refresh();
      if (!this.current || !this.usable()) throw this.unavailable();
    }
    return this.current.keys;
  }

  /**
   * The keys after a token named a `kid` none of them has: fetched again unless a fetch ran within the
   * cooldown (one under way is waited for). Throws `KeySetUnavailableError` when that fetch fails.
   */
  async keysAfterUnknownKid(): Promise<ReadonlyMap<string, VerificationKey>> {
    if (this.inFlight || this.cooldownOver()) {
      await this.refresh();
      if (this.lastFailure !== undefined) throw this.unavailable();
    }
    return this.keys();
  }

  private cooldownOver(): boolean {
    return this.now() - this.lastAttemptMs >= this.policy.refreshCooldownMs;
  }

  private usable(): boolean {
    return this.current !== undefined && this.now() < this.current.expiresAtMs + this.policy.staleIfErrorSeconds * 1000;
  }

  private unavailable(): KeySetUnavailableError {
    return new KeySetUnavailableError(this.url, this.lastFailure ?? 'it has not been fetched');
  }

  /** Fetches the set once for all callers waiting at the same time. */
  private refresh(): Promise<void> {
    this.inFlight ??= this.fetchNow().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchNow(): Promise<void> {
    this.lastAttemptMs = this.now();
    try {
      const fetched = await this.fetcher(this.url, this.policy);
      const lifetimeMs = boundedLifetimeSeconds(fetched.declaredLifetimeSeconds, this.policy) * 1000;
      this.current = { keys: fetched.keys, expiresAtMs: this.now() + lifetimeMs };
      this.lastFailure = undefined;
    } catch (error) {
      this.lastFailure = error instanceof Error ? error.message : String(error);
    }
  }
}

/** The key sets of every configured URL, kept across schema swaps so a new schema with the same URLs starts warm. */
export class KeySets {
  private readonly byUrl = new Map<string, RemoteKeySet>();

  constructor(private readonly policy: KeySetPolicy = DEFAULT_KEY_SET_POLICY, private readonly fetcher: KeySetFetcher = fetchKeySet) {}

  /**
   * The key named `kid` in any of the sets. Only when no set has it are the sets fetched again (each at
   * most once per cooldown), so a `kid` from one URL never makes the others refetch. Throws
   * `KeySetUnavailableError` when the key is in no set and a set could not be had.
   */
  async keyFor(urls: readonly string[], kid: string): Promise<VerificationKey | undefined> {
    const sets = urls.map((url) => this.setFor(url));
    const { key } = await KeySets.find(sets.map((set) => set.keys()), kid);
    return key ?? KeySets.found(sets.map((set) => set.keysAfterUnknownKid()), kid);
  }

  private static async find(lookups: Promise<ReadonlyMap<string, VerificationKey>>[], kid: string) {
    const results = await Promise.allSettled(lookups);
    const key = results.map((result) => (result.status === 'fulfilled' ? result.value.get(kid) : undefined)).find((found) => found !== undefined);
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    return { key, failure };
  }

  private static async found(lookups: Promise<ReadonlyMap<string, VerificationKey>>[], kid: string): Promise<VerificationKey | undefined> {
    const { key, failure } = await KeySets.find(lookups, kid);
    if (key) return key;
    if (failure) throw failure.reason;
    return undefined;
  }

  private setFor(url: string): RemoteKeySet {
    let set = this.byUrl.get(url);
    if (!set) {
      set = new RemoteKeySet(url, this.policy, this.fetcher);
      this.byUrl.set(url, set);
    }
    return set;
  }
}
