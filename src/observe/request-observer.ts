/**
 * Observes every HTTP request the service answers: gives it a request id (the caller's `x-request-id`, or
 * a new one) echoed in the response, a server span that continues the caller's W3C trace context, and
 * when the response is over writes one log line and, for `/graphql`, the request metrics.
 *
 * The span's context is handed on explicitly (the observation's `traceContext`, which the per-request
 * store, lambda host and `@custom` fetch receive), never made "active" with `context.with`: under Node 20
 * an active context means AsyncLocalStorage, whose promise hooks cost every promise of the process.
 */
import { INVALID_SPAN_CONTEXT, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { LabelCap } from './label-cap.js';
import type { ServiceMetrics } from './metrics.js';
import { outcomeOf, type RequestObservation } from './request-observation.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { rootSamplingProvider, secondsSince, tracer } from './tracer.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RequestObserverOptions {
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Bounds the `operation_name` label. */
  operationNames: LabelCap;
}

/** Routes named in span names; any other path is named by its method alone, so span names stay few. */
const KNOWN_ROUTES = new Set(['/graphql', '/metrics', '/health', '/health/ready', '/admin/schema', '/admin/lambda', '/admin/persisted-queries']);
/** Probes and scrapes come every few seconds: their lines are at `debug`, the others at `info`. */
const QUIET_ROUTES = new Set(['/health', '/health/ready', '/metrics']);
const GRAPHQL_ROUTE = '/graphql';
/** Operation names are the client's: a log line carries at most this many characters of one. */
const LOGGED_NAME_LENGTH = 200;

/**
 * The context value's key for its request's observation. A property, not a WeakMap entry: Apollo runs each
 * operation with a shallow copy of the context value, which copies own symbol properties but not identity.
 */
const OBSERVATION = Symbol('autograph.requestObservation');

type ObservedContext = { [OBSERVATION]?: RequestObservation };

/**
 * The HTTP request's own property, for the same reason: a WeakMap entry per request would cost every
 * garbage collection until the request is collected.
 */
type ObservedRequest = IncomingMessage & { [OBSERVATION]?: RequestObservation };

export class RequestObserver {
  constructor(private readonly options: RequestObserverOptions) {}

  /** `handler`, observed. */
  wrap(handler: RequestHandler): RequestHandler {
    return (req, res) => {
      const started = performance.now();
      const requestId = requestIdOf(req.headers[REQUEST_ID_HEADER]);
      res.setHeader(REQUEST_ID_HEADER, requestId);
      const method = req.method ?? 'GET';
      const path = pathOf(req.url);
      const spanName = KNOWN_ROUTES.has(path) ? `${method} ${path}` : method;
      // A caller's trace context (or baggage) decides through the propagators; otherwise a provider that can
      // decide a new trace first does, and a dropped request makes no span.
      const rootSampling = req.headers.traceparent === undefined && req.headers.baggage === undefined ? rootSamplingProvider() : undefined;
      const root = rootSampling?.sampleRoot(spanName, SpanKind.SERVER);
      let span: Span | undefined;
      let observation: RequestObservation;
      if (root && 'dropped' in root) {
        // Both branches make the observation with the same properties in the same order: one object shape for
        // the code that reads it, whether or not the request is traced.
        observation = { requestId, traceContext: undefined, droppedTraceContext: root.dropped, errorCodes: [] };
      } else {
        const parent = root ? root.recorded : propagation.extract(ROOT_CONTEXT, req.headers);
        span = tracer.startSpan(spanName, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path, 'autograph.request_id': requestId } }, parent);
        // A span that is sampled out still has a valid context, which is passed on (with its "not sampled" flag).
        // A recording span's always is: the check of its ids' digits is only needed for the others. Without an
        // SDK every span is the API's no-op one, whose context is INVALID_SPAN_CONTEXT itself: no digits to check.
        const traceContext = span.isRecording() || hasValidContext(span) ? trace.setSpan(parent, span) : undefined;
        observation = { requestId, traceContext, droppedTraceContext: undefined, errorCodes: [] };
      }
      (req as ObservedRequest)[OBSERVATION] = observation;
      res.once('close', () => this.finish(observation, { method, path, status: res.statusCode, aborted: !res.writableFinished, started, span }));
      handler(req, res);
    };
  }

  /** The observation of `req`, for the router to note an error code Apollo did not answer. */
  observationOf(req: IncomingMessage): RequestObservation | undefined {
    return (req as ObservedRequest)[OBSERVATION];
  }

  /** Links a GraphQL context value to its HTTP request, so the Apollo plugin finds the observation. */
  attachContext<T extends object>(req: IncomingMessage, contextValue: T): T {
    const observation = this.observationOf(req);
    if (observation) (contextValue as ObservedContext)[OBSERVATION] = observation;
    return contextValue;
  }

  /** The observation linked to a GraphQL context value (none for a lambda's own `graphql()` requests). */
  observationOfContext(contextValue: object): RequestObservation | undefined {
    return (contextValue as ObservedContext)[OBSERVATION];
  }

  private finish(
    observation: RequestObservation,
    request: { method: string; path: string; status: number; aborted: boolean; started: number; span: Span | undefined },
  ): void {
    const { method, path, status, aborted, started, span } = request;
    const seconds = secondsSince(started);
    const operationType = observation.operationType ?? 'unknown';
    const outcome = outcomeOf(observation, status);
    if (path === GRAPHQL_ROUTE) this.recordGraphQLMetrics(observation, operationType, outcome, seconds);

    if (span?.isRecording()) {
      span.setAttributes(
        observation.operationType === undefined
          ? { 'http.response.status_code': status }
          : { 'http.response.status_code': status, 'graphql.operation.type': observation.operationType, 'graphql.operation.name': observation.operationName ?? '' },
      );
      if (outcome === 'server_error' || aborted) span.setStatus({ code: SpanStatusCode.ERROR, message: aborted ? 'aborted' : observation.errorCodes.join(', ') });
    }
    span?.end();

    const quiet = QUIET_ROUTES.has(path);
    const logger = this.options.logger;
    if (!logger.isLevelEnabled(quiet ? 'debug' : 'info')) return;
    const line = {
      requestId: observation.requestId,
      method,
      path,
      status,
      ms: Math.round(seconds * 10_000) / 10,
      ...(observation.operationType === undefined
        ? {}
        : { operationType: observation.operationType, operationName: (observation.operationName ?? '').slice(0, LOGGED_NAME_LENGTH) }),
      ...(observation.errorCodes.length > 0 ? { errorCodes: observation.errorCodes } : {}),
      ...(aborted ? { aborted: true } : {}),
    };
    if (quiet) logger.debug(line, 'request');
    else logger.info(line, 'request');
  }

  private recordGraphQLMetrics(observation: RequestObservation, operationType: string, outcome: string, seconds: number): void {
    const metrics = this.options.metrics;
    if (!metrics) return;
    metrics.recordRequest(operationType, this.options.operationNames.label(observation.operationName ?? ''), outcome, seconds);
    if (observation.persistedQuery) metrics.recordPersistedQuery(observation.persistedQuery);
  }
}

function hasValidContext(span: Span): boolean {
  const spanContext = span.spanContext();
  return spanContext !== INVALID_SPAN_CONTEXT && isSpanContextValid(spanContext);
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  if (query < 0) return url === '' ? '/' : url;
  return query === 0 ? '/' : url.slice(0, query);
}
