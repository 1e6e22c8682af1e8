import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus instruments, in a registry of their own (one per app, so tests and embedders
 * that run several apps in one process never mix their numbers). A histogram's `_count` is the number of
 * calls it timed, so calls are not counted twice.
 */
export interface ServiceMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'operation_type' | 'operation_name' | 'outcome'>;
  readonly requestDuration: Histogram<'operation_type' | 'operation_name'>;
  readonly storeCallDuration: Histogram<'method'>;
  readonly storeCallFailures: Counter<'method'>;
  readonly lambdaCallDuration: Histogram<'resolver'>;
  readonly lambdaCallFailures: Counter<'resolver'>;
  readonly customCallDuration: Histogram<'host'>;
  readonly customCallFailures: Counter<'host'>;
  readonly persistedQueries: Counter<'result'>;
}

/** What the schema gauge reports: a short hash of the text being served, if any. */
export type ActiveSchemaRevision = () => string | undefined;

const REQUEST_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STORE_SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

export function createServiceMetrics(activeRevision: ActiveSchemaRevision): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'autograph_schema_info',
    help: 'The schema being served: 1, labelled with the first 16 hex digits of the SHA-256 of its text (no series before a schema is loaded)',
    labelNames: ['revision'],
    registers,
    collect() {
      this.reset();
      const revision = activeRevision();
      if (revision !== undefined) this.set({ revision }, 1);
    },
  });
  return {
    registry,
    requests: new Counter({
      name: 'autograph_graphql_requests_total',
      help: 'GraphQL requests to /graphql by operation type, operation name and outcome (ok, a client error code, or server_error)',
      labelNames: ['operation_type', 'operation_name', 'outcome'],
      registers,
    }),
    requestDuration: new Histogram({
      name: 'autograph_graphql_request_duration_seconds',
      help: 'Time from receiving a /graphql request to sending its answer',
      labelNames: ['operation_type', 'operation_name'],
      buckets: REQUEST_SECONDS,
      registers,
    }),
    storeCallDuration: new Histogram({
      name: 'autograph_store_call_duration_seconds',
      help: 'Store round trips made by resolvers, by Store method (find, findPerKey, count, aggregate, insertMany, updateMany, deleteMany)',
      labelNames: ['method'],
      buckets: STORE_SECONDS,
      registers,
    }),
    storeCallFailures: new Counter({
      name: 'autograph_store_call_failures_total',
      help: 'Store round trips that failed, by Store method',
      labelNames: ['method'],
      registers,
    }),
    lambdaCallDuration: new Histogram({
      name: 'autograph_lambda_call_duration_seconds',
      help: '@lambda calls (one per call or per batch), by resolver name',
      labelNames: ['resolver'],
      buckets: REQUEST_SECONDS,
      registers,
    }),
    lambdaCallFailures: new Counter({
      name: 'autograph_lambda_call_failures_total',
      help: '@lambda calls that failed (error, time-out, invalid result), by resolver name',
      labelNames: ['resolver'],
      registers,
    }),
    customCallDuration: new Histogram({
      name: 'autograph_custom_http_call_duration_seconds',
      help: '@custom(http:) requests sent, by target host',
      labelNames: ['host'],
      buckets: REQUEST_SECONDS,
      registers,
    }),
    customCallFailures: new Counter({
      name: 'autograph_custom_http_call_failures_total',
      help: '@custom(http:) requests that failed (no answer, or a status other than 2xx), by target host',
      labelNames: ['host'],
      registers,
    }),
    persistedQueries: new Counter({
      name: 'autograph_persisted_queries_total',
      help: 'Persisted query lookups: hit (hash found), miss (hash unknown or not in the safelist), register (query stored with its hash)',
      labelNames: ['result'],
      registers,
    }),
  };
}
