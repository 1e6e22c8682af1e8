/**
 * Persisted queries: Apollo's APQ protocol with the rules of spec section 4.3, a two-level hash cache
 * (LRU in memory, then the store) and a safelist mode fed by Apollo persisted query manifests.
 */
export {
  createPersistedQueryPlugin,
  PERSISTED_QUERY_DEFAULTS,
  type ManifestResult,
  type PersistedQueries,
  type PersistedQueryLogger,
  type PersistedQueryPluginOptions,
  type PersistedQuerySettings,
} from './plugin.js';
export {
  PersistedQueryCache,
  type PersistedQueryCacheLimits,
  type PersistedQueryLookupOptions,
  type PersistedQueryCacheStats,
  type PersistedQueryDocument,
  type RegistrationCounts,
} from './cache.js';
export { ManifestError, MANIFEST_FORMAT, MANIFEST_VERSION, readManifest, type ManifestOperation } from './manifest.js';
export { PERSISTED_QUERY_CLIENT_ERROR_CODES, PersistedQueryErrorCode } from './errors.js';
export { answerManifestUpload, type AdminAnswer } from './admin.js';
export { classifyPersistedQueryRequest, withoutPersistedQuery, type PersistedQueryRequest } from './request-kind.js';
export { sha256Hex } from './hash.js';
export { isTrustedRequest, markTrustedRequest } from './trusted.js';
