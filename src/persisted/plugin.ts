import type { ApolloServerPlugin, BaseContext, GraphQLRequest, GraphQLRequestListener } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import { StoreUnavailableError, type Store } from '../store/port.js';
import { PersistedQueryCache } from './cache.js';
import { PERSISTED_QUERY_DEFAULTS } from './defaults.js';
import { hashNotInSafelist, lookupFailed, persistedQueryNotFound, queryNotInSafelist } from './errors.js';
import { sha256Hex } from './hash.js';
import { readManifest } from './manifest.js';
import { classifyPersistedQueryRequest, withoutPersistedQuery } from './request-kind.js';
import { isTrustedRequest } from './trusted.js';

export { PERSISTED_QUERY_DEFAULTS } from './defaults.js';

/** What the plugin logs: problems that do not fail the request (a registration the store refused). */
export interface PersistedQueryLogger {
  warn(message: string): void;
}

export interface PersistedQueryPluginOptions {
  store: Store;
  /** Most queries kept in memory; default 10,000. */
  lruMaxEntries?: number;
  /** Most bytes of query text kept in memory; default 32 MiB. */
  lruMaxBytes?: number;
  /** Largest query text that may be persisted, in UTF-8 bytes; larger ones are refused. Default 64 KiB. */
  maxQueryBytes?: number;
  /**
   * Most queries clients may register (APQ) in the store; past it the least recently used client
   * registrations are evicted (see registration-cap.ts). Manifest registrations are never evicted. Default 10,000.
   */
  maxRegisteredQueries?: number;
  /** Most bytes of query text clients may register in the store, evicted likewise. Default 32 MiB. */
  maxRegisteredBytes?: number;
  /**
   * Safelist mode: only registered hashes run, clients cannot register, only `registerManifest` can.
   * Requests marked with `markTrustedRequest` (the service's own, such as a lambda's `graphql()`) are exempt.
   */
  persistedOnly?: boolean;
  /** Default: Apollo Server's logger of the request. */
  logger?: PersistedQueryLogger;
}

export interface ManifestResult {
  /** Operations in the manifest (distinct ids). */
  operations: number;
  /** Of those, newly stored by this upload. */
  added: number;
  /** Of those, stored before. */
  alreadyRegistered: number;
}

export interface PersistedQueries {
  /** Add to Apollo Server's `plugins`, first; construct Apollo Server with `persistedQueries: false`. */
  plugin: ApolloServerPlugin<BaseContext>;
  /** Validates an Apollo persisted query manifest and stores all its operations, or none (`ManifestError`). */
  registerManifest(body: unknown): Promise<ManifestResult>;
  /**
   * The plugin's decisions as a plain function, for transports Apollo's plugins do not see (graphql-ws):
   * the query text a request with `query` and `extensions` runs (looked up by hash, checked against the
   * safelist), or the error that refuses it. `registerOnceAccepted` stores a new hash/query pair; call it
   * once the operation has been parsed, validated and accepted, as the plugin does.
   */
  queryOf(
    query: string | undefined,
    extensions: Record<string, unknown> | undefined,
    logger: PersistedQueryLogger,
  ): Promise<{ query: string; registerOnceAccepted?: () => Promise<void> } | { error: GraphQLError }>;
  cache: PersistedQueryCache;
  /** The options in force, defaults filled in. */
  settings: PersistedQuerySettings;
}

type ResolvedQuery =
  | { kind: 'run'; query: string | undefined; hit?: boolean; register?: { hash: string; query: string } }
  | { kind: 'refuse'; error: GraphQLError };

export interface PersistedQuerySettings {
  persistedOnly: boolean;
  lruMaxEntries: number;
  lruMaxBytes: number;
  maxQueryBytes: number;
  maxRegisteredQueries: number;
  maxRegisteredBytes: number;
}

/**
 * A request that must be refused gets this as its query. Apollo Server gives plugins no way to answer
 * before parsing (a hook that throws before then becomes a masked 500), and `didResolveOperation` is
 * the first hook whose thrown GraphQLError is sent as it is, with its status. This document parses
 * and validates against any schema, so the request reaches that hook, where the plugin throws the
 * real error; it is never executed. Apollo's document cache makes its parse a one-off.
 */
const REFUSED_REQUEST_PLACEHOLDER = '{ __typename }';

export function createPersistedQueryPlugin(options: PersistedQueryPluginOptions): PersistedQueries {
  const lruMaxEntries = positiveInteger('lruMaxEntries', options.lruMaxEntries ?? PERSISTED_QUERY_DEFAULTS.lruMaxEntries);
  const lruMaxBytes = positiveInteger('lruMaxBytes', options.lruMaxBytes ?? PERSISTED_QUERY_DEFAULTS.lruMaxBytes);
  const maxQueryBytes = positiveInteger('maxQueryBytes', options.maxQueryBytes ?? PERSISTED_QUERY_DEFAULTS.maxQueryBytes);
  const maxRegisteredQueries = positiveInteger('maxRegisteredQueries', options.maxRegisteredQueries ?? PERSISTED_QUERY_DEFAULTS.maxRegisteredQueries);
  const maxRegisteredBytes = positiveInteger('maxRegisteredBytes', options.maxRegisteredBytes ?? PERSISTED_QUERY_DEFAULTS.maxRegisteredBytes);
  if (maxQueryBytes > lruMaxBytes) {
    throw new RangeError(`maxQueryBytes (${maxQueryBytes}) must not exceed lruMaxBytes (${lruMaxBytes})`);
  }
  if (maxQueryBytes > maxRegisteredBytes) {
    throw new RangeError(`maxQueryBytes (${maxQueryBytes}) must not exceed maxRegisteredBytes (${maxRegisteredBytes})`);
  }
  const persistedOnly = options.persistedOnly ?? false;
  const cache = new PersistedQueryCache(
    options.store,
    { maxEntries: lruMaxEntries, maxBytes: lruMaxBytes },
    { maxQueries: maxRegisteredQueries, maxBytes: maxRegisteredBytes },
  );

  /**
   * The stored query, `undefined` if none, or the error that the failed lookup answers with. In safelist
   * mode only an administrator's registration counts: one a client made (APQ, before safelist mode was
   * turned on, or on an instance without it) answers `undefined`, as an unregistered hash does.
   */
  async function lookUp(hash: string, safelist: boolean, logger: PersistedQueryLogger): Promise<{ query?: string; error?: GraphQLError }> {
    try {
      return { query: await cache.get(hash, { manifestOnly: safelist }) };
    } catch (error) {
      const unavailable = error instanceof StoreUnavailableError;
      if (!unavailable) {
        logger.warn(`persisted query lookup of ${hash} failed: ${messageOf(error)}`);
      }
      return { error: lookupFailed(messageOf(error), unavailable) };
    }
  }

  async function resolveQuery(query: string | undefined, extensions: Record<string, unknown> | undefined, safelist: boolean, logger: PersistedQueryLogger): Promise<ResolvedQuery> {
    const asked = classifyPersistedQueryRequest(query, extensions, maxQueryBytes);
    switch (asked.kind) {
      case 'invalid':
        return { kind: 'refuse', error: asked.error };
      case 'ordinary':
      case 'unpersisted': {
        if (!safelist || query === undefined || query === '') {
          return { kind: 'run', query };
        }
        const hash = sha256Hex(query);
        const found = await lookUp(hash, safelist, logger);
        if (found.error) {
          return { kind: 'refuse', error: found.error };
        }
        return found.query === undefined ? { kind: 'refuse', error: queryNotInSafelist(hash) } : { kind: 'run', query };
      }
      case 'lookup': {
        const found = await lookUp(asked.hash, safelist, logger);
        if (found.error) {
          return { kind: 'refuse', error: found.error };
        }
        if (found.query === undefined) {
          return { kind: 'refuse', error: safelist ? hashNotInSafelist(asked.hash) : persistedQueryNotFound() };
        }
        return { kind: 'run', query: found.query, hit: true };
      }
      case 'register': {
        if (safelist) {
          const found = await lookUp(asked.hash, safelist, logger);
          if (found.error) {
            return { kind: 'refuse', error: found.error };
          }
          return found.query === undefined ? { kind: 'refuse', error: queryNotInSafelist(asked.hash) } : { kind: 'run', query };
        }
        return cache.isRemembered(asked.hash) ? { kind: 'run', query } : { kind: 'run', query, register: { hash: asked.hash, query: asked.query } };
      }
    }
  }

  async function register(hash: string, query: string, logger: PersistedQueryLogger): Promise<void> {
    try {
      await cache.register(hash, query);
    } catch (error) {
      logger.warn(`persisted query ${hash} was not stored: ${messageOf(error)}`);
    }
  }

  async function handle(request: GraphQLRequest, logger: PersistedQueryLogger): Promise<GraphQLRequestListener<BaseContext> | void> {
    const safelist = persistedOnly && !isTrustedRequest(request);
    const resolved = await resolveQuery(request.query, request.extensions, safelist, logger);
    if (request.extensions?.persistedQuery !== undefined && request.extensions?.persistedQuery !== null) {
      // Apollo's own APQ code must not see it: with `persistedQueries: false` it refuses the request
      // (PersistedQueryNotSupported), and when enabled it would apply its own, different rules.
      request.extensions = withoutPersistedQuery(request.extensions);
    }
    if (resolved.kind === 'refuse') return refuse(request, resolved.error);
    if (resolved.hit) {
      request.query = resolved.query;
      return markHit;
    }
    return resolved.register ? registerOnExecution(resolved.register.hash, resolved.register.query, logger) : undefined;
  }

  /**
   * Stores the query once Apollo has parsed and validated it and every plugin accepted the operation
   * (so a query that does not parse, or a GET mutation, is never stored). A store failure is logged;
   * the query still runs and the client will register it again next time.
   */
  function registerOnExecution(hash: string, query: string, logger: PersistedQueryLogger): GraphQLRequestListener<BaseContext> {
    return {
      async didResolveSource(requestContext) {
        requestContext.metrics.persistedQueryRegister = true;
      },
      async executionDidStart() {
        await register(hash, query, logger);
      },
    };
  }

  return {
    plugin: {
      async requestDidStart(requestContext) {
        const { request } = requestContext;
        // Most requests: a query without the extension, outside safelist mode; nothing to look up or refuse.
        if (!persistedOnly && (request.extensions?.persistedQuery ?? null) === null) return undefined;
        return handle(request, options.logger ?? requestContext.logger);
      },
    },
    async registerManifest(body: unknown): Promise<ManifestResult> {
      const operations = readManifest(body, maxQueryBytes);
      const counts = await cache.registerAll(operations.map((operation) => ({ hash: operation.hash, query: operation.body })));
      return { operations: counts.added + counts.existing, added: counts.added, alreadyRegistered: counts.existing };
    },
    async queryOf(query, extensions, logger) {
      const resolved = await resolveQuery(query, extensions, persistedOnly, logger);
      if (resolved.kind === 'refuse') return { error: resolved.error };
      if (resolved.query === undefined || resolved.query === '') return { error: new GraphQLError('the request has no query', { extensions: { code: ErrorCode.BAD_REQUEST } }) };
      const text = resolved.query;
      return { query: text, registerOnceAccepted: resolved.register ? () => register(resolved.register!.hash, text, logger) : undefined };
    },
    cache,
    settings: { persistedOnly, lruMaxEntries, lruMaxBytes, maxQueryBytes, maxRegisteredQueries, maxRegisteredBytes },
  };
}

function refuse(request: GraphQLRequest, error: GraphQLError): GraphQLRequestListener<BaseContext> {
  request.query = REFUSED_REQUEST_PLACEHOLDER;
  return {
    // Not async: throwing synchronously makes this error win over other plugins' hooks for the placeholder.
    didResolveOperation(): Promise<void> {
      throw error;
    },
  };
}

/** Apollo resets the metrics after `requestDidStart`, so the hit is recorded once the source is known. */
const markHit: GraphQLRequestListener<BaseContext> = {
  async didResolveSource(requestContext) {
    requestContext.metrics.persistedQueryHit = true;
  },
};

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  return value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
