/** How subscriptions run (the CLI's `--subscription-*` flags). */
export interface LiveSettings {
  /** How long changes are gathered into one batch of re-runs after the first, in ms. */
  debounceMs: number;
  /** Running subscriptions one WebSocket connection may hold. */
  maxPerConnection: number;
  /** Running subscriptions on this instance, all connections together. */
  maxTotal: number;
}

export const DEFAULT_LIVE_SETTINGS: Readonly<LiveSettings> = Object.freeze({
  debounceMs: 20,
  maxPerConnection: 100,
  maxTotal: 10_000,
});

export function liveSettings(given: Partial<LiveSettings> = {}): LiveSettings {
  const settings: LiveSettings = { ...DEFAULT_LIVE_SETTINGS };
  for (const key of Object.keys(settings) as (keyof LiveSettings)[]) {
    const value = given[key];
    if (value === undefined) continue;
    const least = key === 'debounceMs' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < least) {
      throw new RangeError(`subscription setting ${key} must be an integer of at least ${least}, got ${value}`);
    }
    settings[key] = value;
  }
  return settings;
}
