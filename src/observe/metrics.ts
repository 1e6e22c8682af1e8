import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { BucketHistogram } from './bucket-histogram.js';

/**
 * The service's Prometheus instruments, in a registry of their own (one per app, so tests and embedders
 * that run several apps in one process never mix their numbers), behind one method per thing recorded.
 * A histogram's `_count` is the number of calls it timed, so calls are not counted twice.
 */
export interface ServiceMetrics {
  readonly registry: Registry;
  recordRequest(operationType: string, operationName: string, outcome: string, seconds: number): void;
  recordStoreCall(method: string, seconds: number, failed: boolean): void;
  recordLambdaCall(resolver: string, seconds: number, failed: boolean): void;
  recordCustomCall(host: string, seconds: number, failed: boolean): void;
  recordPersistedQuery(result: string): void;
  setRunningSubscriptions(count: number): void;
  recordSubscriptionRerun(): void;
  /** `delivered` (sent to a subscriber) or `unchanged` (equal to the last one sent, so not sent). */
  recordSubscriptionResult(outcome: 'delivered' | 'unchanged'): void;
  /** A subscription refused before it started, by its error code. */
  recordSubscriptionRefused(code: string): void;
  /** A mutation webhook event: `delivered`, `failed` (with why) or `dropped` (the queue was full). */
  recordWebhook(webhook: string, outcome: WebhookOutcome): void;
}

/** `delivered`, `dropped`, or `failed_<failure>` (thrown, timeout, not-registered, ... with `_` for `-`). */
export type WebhookOutcome = string;

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
  const requests = new Counter({
    name: 'autograph_graphql_requests_total',
    help: 'GraphQL requests to /graphql by operation type, operation name and outcome (ok, a client error code, or server_error)',
    labelNames: ['operation_type', 'operation_name', 'outcome'] as const,
    registers,
  });
  const requestDuration = new BucketHistogram(
    'autograph_graphql_request_duration_seconds',
    'Time from receiving a /graphql request to sending its answer',
    ['operation_type', 'operation_name'],
    REQUEST_SECONDS,
    registry,
  );
  const storeCalls = timedCalls(registry, 'autograph_store_call', 'method', STORE_SECONDS,
    'Store round trips made by resolvers, by Store method (find, findPerKey, count, aggregate, insertMany, updateMany, deleteMany)',
    'Store round trips that failed, by Store method');
  const lambdaCalls = timedCalls(registry, 'autograph_lambda_call', 'resolver', REQUEST_SECONDS,
    '@lambda calls (one per call or per batch), by resolver name',
    '@lambda calls that failed (error, time-out, invalid result), by resolver name');
  const customCalls = timedCalls(registry, 'autograph_custom_http_call', 'host', REQUEST_SECONDS,
    '@custom(http:) requests sent, by target host, until the answer\'s headers',
    '@custom(http:) requests that failed (no answer, or a status other than 2xx), by target host');
  const persistedQueries = new Counter({
    name: 'autograph_persisted_queries_total',
    help: 'Persisted query lookups: hit (hash found), miss (hash unknown or not in the safelist), register (query stored with its hash)',
    labelNames: ['result'] as const,
    registers,
  });
  const runningSubscriptions = new Gauge({
    name: 'autograph_subscriptions_running',
    help: 'Subscriptions running on this instance, all WebSocket connections together',
    registers,
  });
  const subscriptionReruns = new Counter({
    name: 'autograph_subscription_reruns_total',
    help: 'Subscription operations run again after a change to what they read (one run per group of equal subscriptions)',
    registers,
  });
  const subscriptionResults = new Counter({
    name: 'autograph_subscription_results_total',
    help: 'Subscription results by outcome: delivered (sent to a subscriber) or unchanged (equal to the last one sent, so not sent)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const subscriptionRefusals = new Counter({
    name: 'autograph_subscriptions_refused_total',
    help: 'Subscriptions refused before they started, by error code (limits, validation, authentication, ...)',
    labelNames: ['code'] as const,
    registers,
  });
  const webhooks = new Counter({
    name: 'autograph_lambda_webhooks_total',
    help: 'Mutation webhook events (@lambdaOnMutate) by webhook and outcome: delivered, dropped (the queue was full), or failed_<why> (thrown, timeout, not_registered, worker_stopped, ...)',
    labelNames: ['webhook', 'outcome'] as const,
    registers,
  });
  const webhookCounts = childrenByLabel((webhook) => childrenByLabel((outcome) => webhooks.labels(webhook, outcome)));
  const requestCounts = childrenByLabel((type) => childrenByLabel((name) => childrenByLabel((outcome) => requests.labels(type, name, outcome))));
  const requestTimers = childrenByLabel((type) => childrenByLabel((name) => requestDuration.child(type, name)));
  const persistedCounts = childrenByLabel((result) => persistedQueries.labels(result));
  const resultCounts = childrenByLabel((outcome) => subscriptionResults.labels(outcome));
  const refusalCounts = childrenByLabel((code) => subscriptionRefusals.labels(code));
  return {
    registry,
    recordRequest(operationType, operationName, outcome, seconds) {
      requestCounts(operationType)(operationName)(outcome).inc();
      requestTimers(operationType)(operationName).observe(seconds);
    },
    recordStoreCall: storeCalls,
    recordLambdaCall: lambdaCalls,
    recordCustomCall: customCalls,
    recordPersistedQuery: (result) => persistedCounts(result).inc(),
    setRunningSubscriptions: (count) => runningSubscriptions.set(count),
    recordSubscriptionRerun: () => subscriptionReruns.inc(),
    recordSubscriptionResult: (outcome) => resultCounts(outcome).inc(),
    recordSubscriptionRefused: (code) => refusalCounts(code).inc(),
    recordWebhook: (webhook, outcome) => webhookCounts(webhook)(outcome).inc(),
  };
}

/** A `<prefix>_duration_seconds` histogram and a `<prefix>_failures_total` counter over one label. */
function timedCalls(
  registry: Registry,
  prefix: string,
  label: string,
  buckets: number[],
  durationHelp: string,
  failuresHelp: string,
): (value: string, seconds: number, failed: boolean) => void {
  const duration = new BucketHistogram(`${prefix}_duration_seconds`, durationHelp, [label], buckets, registry);
  const failures = new Counter({ name: `${prefix}_failures_total`, help: failuresHelp, labelNames: [label], registers: [registry] });
  const timers = childrenByLabel((value) => duration.child(value));
  const failureCounts = childrenByLabel((value) => failures.labels(value));
  return (value, seconds, failed) => {
    timers(value).observe(seconds);
    if (failed) failureCounts(value).inc();
  };
}

/**
 * What `make` returns for each value of one label, made once: prom-client checks and hashes the labels on
 * every `inc(labels)`, and builds a labels object on every `labels(...)`, a cost on every request
 * otherwise (histograms are bucket-histogram.ts's, whose children are made once here too). Nested, one level per label, so a lookup builds no key. The label
 * values are bounded (see label-cap.ts), so the maps are too.
 */
function childrenByLabel<C>(make: (value: string) => C): (value: string) => C {
  const children = new Map<string, C>();
  return (value) => {
    let child = children.get(value);
    if (child === undefined) {
      child = make(value);
      children.set(value, child);
    }
    return child;
  };
}
