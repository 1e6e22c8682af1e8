import type DataLoader from 'dataloader';
import type { Logger } from 'pino';
import type { AuthResult } from '../auth/index.js';
import type { CommittedMutation, LambdaHost } from '../custom/index.js';
import { DEFAULT_BUDGET_LIMITS, RequestBudget, type BudgetLimits } from '../limits/budget.js';
import type { Store } from '../store/port.js';
import { budgetedStore } from './budgeted-store.js';

/** Long-lived dependencies of the resolvers, shared by every request. */
export interface ResolverServices {
  store: Store;
  logger?: Logger;
  /** Serves `@lambda` fields; read at every call, so a replaced script applies to the next call. */
  lambdaHost?: LambdaHost;
  /** `@custom(http:)` settings; without them every host is refused. */
  customHttp?: CustomHttpSettings;
  /**
   * Runs a GraphQL operation against the active schema with a fresh request context built from
   * `headers` (the lambda's `graphql(query, variables)` callback, run as the caller). Answers the
   * formatted result, `{ data, errors }`.
   */
  executeGraphQL?(query: string, variables: Record<string, unknown> | undefined, headers: Record<string, string | undefined>): Promise<object>;
  /** Each request's time limit and object cap (limits/'s defaults when absent). */
  budgetLimits?: Readonly<BudgetLimits>;
  /**
   * Told once a generated mutation of a `@lambdaOnMutate` type has committed (resolve/mutation-events.ts);
   * must return at once: the mutation's answer never waits for its webhook.
   */
  mutationCommitted?(mutation: CommittedMutation): void;
}

export interface CustomHttpSettings {
  /** Hosts `@custom` may call (see custom/host-allow-list.ts): empty refuses all, `['*']` allows all. */
  allowHosts: readonly string[];
  /** Values for `secretHeaders`, by secret name. */
  secrets: Readonly<Record<string, string>>;
  /** Time limit of one HTTP call, in ms (custom/'s default when absent). */
  timeoutMs?: number;
  /** The `fetch` that sends the calls (observe/'s traced and timed one); the global `fetch` when absent. */
  fetch?: typeof fetch;
}

export interface IncomingRequest {
  headers: Record<string, string | undefined>;
}

/** Per-request state: the caller's headers, its budget, and the batching loaders of this request only. */
export interface RequestContext {
  headers: Record<string, string | undefined>;
  /** This request's deadline and object cap; resolvers charge the objects they return against it. */
  budget: RequestBudget;
  /** The services' store under this request's budget: every call carries its deadline. */
  store: Store;
  /** Keyed by relation and arguments; a loader never outlives its request, so it never serves stale data. */
  loaders: Map<string, DataLoader<unknown, unknown>>;
  /** The verified caller (auth/'s plugin sets it; otherwise it is verified from `headers` on first use). */
  auth?: AuthResult;
  /**
   * The services this request was created with, when they differ per request (the server decorates the
   * lambda host and the `@custom` fetch with the request's trace); resolvers prefer them to the schema's.
   */
  services?: ResolverServices;
}

/** The server's per-request context factory; `services` are the same for every request. */
export function createRequestContext(services: ResolverServices, request: IncomingRequest): RequestContext {
  const budget = new RequestBudget(services.budgetLimits ?? DEFAULT_BUDGET_LIMITS);
  return { headers: request.headers, budget, store: budgetedStore(services.store, budget), loaders: new Map(), services };
}

/** The loader for `key`, created on first use within this request. */
export function loaderFor<K, V>(context: RequestContext, key: string, create: () => DataLoader<K, V>): DataLoader<K, V> {
  let loader = context.loaders.get(key) as DataLoader<K, V> | undefined;
  if (!loader) {
    loader = create();
    context.loaders.set(key, loader as DataLoader<unknown, unknown>);
  }
  return loader;
}
