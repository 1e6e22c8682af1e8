/**
 * Default limits of the persisted query cache. A module without imports, so the CLI's option parsing can
 * name them without loading the plugin (and Apollo Server with it).
 */
export const PERSISTED_QUERY_DEFAULTS = {
  /** Most queries kept in memory. */
  lruMaxEntries: 10_000,
  /** Most bytes of query text kept in memory: 32 MiB. */
  lruMaxBytes: 32 * 1024 * 1024,
  /** Largest query text that may be persisted, in UTF-8 bytes: 64 KiB. */
  maxQueryBytes: 64 * 1024,
  /** Most queries clients may register (APQ) in the store; past it the least recently used are evicted. */
  maxRegisteredQueries: 10_000,
  /** Most bytes of query text clients may register in the store: 32 MiB. */
  maxRegisteredBytes: 32 * 1024 * 1024,
} as const;
