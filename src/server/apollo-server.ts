import { ApolloServer, type ApolloServerPlugin, type BaseContext } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import type { ValidationRule } from 'graphql';
import type { Logger } from 'pino';
import { createAuthPlugin, type KeySets } from '../auth/index.js';
import { misplacedTokenLogger } from './misplaced-token-log.js';
import { operationLimitsPlugin } from '../limits/plugin.js';
import { operationLimitRules } from '../limits/rules.js';
import type { OperationLimits } from '../limits/settings.js';
import type { PersistedQueries } from '../persisted/index.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type PageLimits } from '../query/pagination.js';
import { cacheControlPlugin } from './cache-control-plugin.js';
import { errorLoggingPlugin } from './error-logging-plugin.js';
import { formatError } from './format-error.js';
import { hideSuggestionsPlugin } from './hide-suggestions-plugin.js';
import { inlineTraceWhenAsked } from './inline-trace-plugin.js';
import { noIntrospectionRule } from './no-introspection-rule.js';
import { pluginGroup } from './plugin-group.js';
import type { SwappableSchemaSource } from './schema-source.js';

export interface ApolloServerParts {
  schemaSource: SwappableSchemaSource;
  persistedQueries: PersistedQueries;
  limits: OperationLimits;
  /** The JWK Sets the auth plugin verifies tokens with (fetched and kept per URL). */
  keySets: KeySets;
  /**
   * Whether introspection is answered and validation errors suggest names ("Did you mean ...?");
   * default: on unless NODE_ENV is production, as Apollo Server decides.
   */
  introspection?: boolean;
  /**
   * Apollo's CSRF prevention: a GET (or a form-like POST) must carry a header that a cross-site page cannot
   * send without a preflight. Default off: the service reads no ambient credential (no cookies; a token
   * comes in the header the schema names), so a cross-site request carries nothing a page could abuse.
   */
  csrfPrevention?: boolean;
  /**
   * The service's own request plugins (budget, observation): run after the persisted query, auth and limits
   * plugins, in one plugin group with them (see plugin-group.ts), so each may have `requestDidStart` only.
   */
  requestPlugins?: ApolloServerPlugin<BaseContext>[];
  /** More plugins, of any kind; they run after the service's own request plugins. */
  plugins?: ApolloServerPlugin<BaseContext>[];
  logger: Logger;
}

/** Apollo Server as the service runs it: plugin order, validation rules, parse options, error formatting. */
/** The page sizes the resolvers apply (query/pagination.ts), which the cost estimate follows. */
const PAGES: PageLimits = { defaultPageSize: DEFAULT_PAGE_SIZE, maxPageSize: MAX_PAGE_SIZE };

/** Whether introspection is answered: as asked, else Apollo Server's default (off under NODE_ENV=production). */
export function introspectionEnabled(asked: boolean | undefined): boolean {
  return asked ?? process.env.NODE_ENV !== 'production';
}

/** The validation rules beyond graphql-js's own, for HTTP (Apollo) and WebSocket (live/) alike. */
export function serviceValidationRules(limits: OperationLimits, introspection: boolean): ValidationRule[] {
  return [...(introspection ? [] : [noIntrospectionRule]), ...operationLimitRules(limits, PAGES)];
}

export function createApolloServer(parts: ApolloServerParts): ApolloServer<BaseContext> {
  const { limits, logger } = parts;
  const introspection = introspectionEnabled(parts.introspection);
  return new ApolloServer<BaseContext>({
    gateway: parts.schemaSource,
    // The persisted query plugin comes first: it replaces the request's query text (a hash lookup) before
    // anything reads it, and its refusals must win over later plugins' hooks (see persisted/plugin.ts).
    // The auth plugin then refuses an invalid token (401) before anything runs; registering it twice is
    // harmless. The limits plugin checks the query text the persisted query plugin left in place.
    plugins: [
      // One group: Apollo calls each hook once on the group instead of on every plugin's listener.
      pluginGroup([
        parts.persistedQueries.plugin,
        createAuthPlugin(parts.keySets, { onMisplacedToken: misplacedTokenLogger(logger) }),
        operationLimitsPlugin(limits, PAGES),
        ...(parts.requestPlugins ?? []),
        // Without introspection, "Did you mean ...?" in error messages would reveal the schema's names.
        ...(introspection ? [] : [hideSuggestionsPlugin()]),
        errorLoggingPlugin(logger),
        cacheControlPlugin(),
      ]),
      ...(parts.plugins ?? []),
      // Apollo's cache control plugin hooks every resolved field to compute a policy from type and field
      // hints, which the generated API has none of; cacheControlPlugin sets the header once per request.
      ApolloServerPluginCacheControlDisabled(),
      // The schema is always a subgraph, for which Apollo would install its inline trace plugin by itself.
      inlineTraceWhenAsked(),
    ],
    validationRules: serviceValidationRules(limits, introspection),
    // A backstop for query texts the limits plugin did not see (found by hash in the persisted queries).
    parseOptions: { maxTokens: limits.maxTokens },
    // Apollo's own APQ (in memory, other rules) is off: the plugin above implements the protocol.
    persistedQueries: false,
    // Refused by noIntrospectionRule instead of Apollo's rule, whose message tells operators to change code.
    introspection: true,
    csrfPrevention: parts.csrfPrevention ?? false,
    includeStacktraceInErrorResponses: false,
    formatError,
    // The CLI owns SIGTERM/SIGINT: it drains HTTP first, then stops Apollo, then flushes the store.
    stopOnTerminationSignals: false,
    logger: logger.child({ component: 'apollo' }),
  });
}
