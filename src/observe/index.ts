import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { trace, type Context } from '@opentelemetry/api';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { LambdaHost, WebhookListener } from '../custom/index.js';
import type { Store } from '../store/port.js';
import { LabelCap } from './label-cap.js';
import { createServiceMetrics, type ServiceMetrics } from './metrics.js';
import { observedFetch } from './observed-fetch.js';
import { observedLambdaHost } from './observed-lambda.js';
import { observedStore } from './observed-store.js';
import { requestObservationPlugin } from './request-plugin.js';
import { RequestObserver } from './request-observer.js';
import { webhookMetrics } from './webhook-metrics.js';

export { REQUEST_ID_HEADER } from './request-id.js';
export { noteErrorCode } from './request-observation.js';
export type { ServiceMetrics } from './metrics.js';

export interface ObservabilityOptions {
  logger: Logger;
  /** Whether to keep Prometheus metrics (served at `/metrics`); default true. */
  metrics?: boolean;
  /** The text of the schema being served, for the schema revision gauge. */
  activeSchemaText: () => string | undefined;
}

/** Distinct operation names, resolvers and hosts reported as label values before the rest become `other`. */
const LABEL_VALUES = 100;
const LABEL_LENGTH = 100;

/** What the resolvers call out to: the store, the lambda host and the `@custom` HTTP client. */
export interface ObservableServices {
  store: Store;
  lambdaHost?: LambdaHost;
  customHttp?: { fetch?: typeof fetch };
}

/**
 * Metrics, traces and request logs, attached at a few points of the service: the HTTP handler, one Apollo
 * plugin, and decorators of the resolvers' store, lambda host and `@custom` fetch. Nothing here is called
 * from inside resolvers.
 */
export interface Observability {
  /** Undefined when metrics are off. */
  readonly metrics: ServiceMetrics | undefined;
  readonly requests: RequestObserver;
  readonly plugin: ApolloServerPlugin<BaseContext>;
  /**
   * `services` with their store, lambda host and `@custom` fetch timed into the metrics; for `req`, also
   * traced as children of that request's span. Made once for the schema, and once per HTTP request.
   * `customLogic` false (the served schema has no `@lambda` or `@custom` field) leaves the lambda host and
   * the `@custom` fetch as made for the schema: nothing of the request would call them.
   */
  decorate<T extends ObservableServices>(services: T, req?: IncomingMessage, customLogic?: boolean): T;
  /** Counts the mutation webhook events the dispatcher reports (nothing when metrics are off). */
  readonly webhooks: WebhookListener;
}

export function createObservability(options: ObservabilityOptions): Observability {
  const metrics = options.metrics === false ? undefined : createServiceMetrics(revisionReader(options.activeSchemaText));
  const requests = new RequestObserver({ logger: options.logger, metrics, operationNames: new LabelCap(LABEL_VALUES, LABEL_LENGTH) });
  const resolverNames = new LabelCap(LABEL_VALUES, LABEL_LENGTH);
  const hosts = new LabelCap(LABEL_VALUES, LABEL_LENGTH);
  const untraced = new WeakMap<ObservableServices, ObservableServices>();
  return {
    metrics,
    requests,
    plugin: requestObservationPlugin((contextValue) => requests.observationOfContext(contextValue)),
    webhooks: webhookMetrics(metrics, resolverNames),
    decorate<T extends ObservableServices>(services: T, req?: IncomingMessage, customLogic = true): T {
      const observation = req && requests.observationOf(req);
      const traceContext = observation?.traceContext;
      if (!traceContext) {
        const dropped = observation?.droppedTraceContext;
        return customLogic && dropped && services.customHttp ? { ...untracedOf(services), customHttp: tracedCustomHttp(services.customHttp, dropped()) } : untracedOf(services);
      }
      if (trace.getSpan(traceContext)?.isRecording()) return traced(services, traceContext, customLogic);
      // A request span that records nothing (sampled out) gets children that record nothing under every
      // standard sampler (parent-based, trace id ratio, always on or off), so its store and lambda calls
      // make no spans; its `@custom` requests still send its trace context on, flagged "not sampled".
      const shared = untracedOf(services);
      return customLogic && shared.customHttp ? { ...shared, customHttp: tracedCustomHttp(services.customHttp!, traceContext) } : shared;
    },
  };

  /** Untraced, the decoration is the same for every request: made once per services object. */
  function untracedOf<T extends ObservableServices>(services: T): T {
    let shared = untraced.get(services) as T | undefined;
    if (!shared) {
      shared = decorated(services, undefined);
      untraced.set(services, shared);
    }
    return shared;
  }

  /** For a recorded request: its store calls traced, and its lambda and `@custom` calls when the schema has any. */
  function traced<T extends ObservableServices>(services: T, traceContext: Context, customLogic: boolean): T {
    if (customLogic) return decorated(services, traceContext);
    return { ...untracedOf(services), store: observedStore(services.store, metrics, traceContext) };
  }

  function decorated<T extends ObservableServices>(services: T, traceContext: Context | undefined): T {
    const result: T = { ...services, store: observedStore(services.store, metrics, traceContext) };
    if (services.lambdaHost) result.lambdaHost = observedLambdaHost(services.lambdaHost, metrics, resolverNames, traceContext);
    if (services.customHttp) result.customHttp = tracedCustomHttp(services.customHttp, traceContext);
    return result;
  }

  function tracedCustomHttp(customHttp: NonNullable<ObservableServices['customHttp']>, traceContext: Context | undefined) {
    return { ...customHttp, fetch: observedFetch(metrics, hosts, traceContext, customHttp.fetch) };
  }
}

/** Answers a Prometheus scrape with the registry's text format. */
export async function sendMetrics(res: ServerResponse, metrics: ServiceMetrics): Promise<void> {
  const text = await metrics.registry.metrics();
  res.writeHead(200, { 'content-type': metrics.registry.contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

/** The schema revision label: a short SHA-256 of the active text, computed once per text. */
function revisionReader(activeSchemaText: () => string | undefined): () => string | undefined {
  let lastText: string | undefined;
  let lastRevision: string | undefined;
  return () => {
    const text = activeSchemaText();
    if (text !== lastText) {
      lastText = text;
      lastRevision = text === undefined ? undefined : createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
    }
    return lastRevision;
  };
}
