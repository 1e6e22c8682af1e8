import { callsWebhook, type LambdaAuthHeader, type MutationOperation } from '../custom/index.js';
import type { SchemaModel, TypeModel } from '../sdl/model.js';
import type { RequestContext, ResolverServices } from './context.js';
import { HashedPassword } from './mutations/hashed-password.js';
import type { MutationOutcome } from './mutations/run.js';

/**
 * The post-commit hook of the generated mutations: once `addT` / `updateT` / `deleteT` has committed, a type
 * with `@lambdaOnMutate` for that kind hands the facts of the mutation to the services' `mutationCommitted`
 * (custom/webhook-dispatcher.ts explains why this, and not the store's change feed, feeds the webhooks).
 * Nothing is awaited; a mutation that failed or was rolled back never reaches this point.
 */
export type CommitAnnouncer = (context: RequestContext, facts: CommitFacts) => void;

export interface CommitFacts {
  outcome: MutationOutcome;
  /** add: the inputs as written (passwords already hashed). */
  input?: readonly Record<string, unknown>[];
  /** update: the `set` (passwords already hashed) and `remove` patches. */
  set?: Record<string, unknown> | null;
  remove?: Record<string, unknown> | null;
}

/** The announcer for `operation` on `type`, or undefined when the type calls no webhook for it (costs nothing then). */
export function commitAnnouncer(model: SchemaModel, type: TypeModel, operation: MutationOperation): CommitAnnouncer | undefined {
  if (!callsWebhook(model, type, operation)) return undefined;
  return (context, facts) => {
    const services: ResolverServices | undefined = context.services;
    if (!services?.mutationCommitted) return;
    const { outcome } = facts;
    services.mutationCommitted({
      typeName: type.name,
      operation,
      rootIds: [...outcome.ids.values()].flat(),
      ...(operation === 'add' ? { input: jsonCopy(facts.input ?? []) as unknown[] } : {}),
      ...(operation === 'update' ? { setPatch: jsonCopy(facts.set ?? null), removePatch: jsonCopy(facts.remove ?? null) } : {}),
      ...authHeaderPart(model, context),
      graphql: (query, variables) => {
        if (!services.executeGraphQL) return Promise.reject(new Error('this service was started without a GraphQL executor for lambdas'));
        return services.executeGraphQL(query, variables, context.headers);
      },
    });
  };
}

/**
 * A plain JSON copy of what the mutation wrote, taken now (the event outlives the request): a `@secret`
 * value as the hash that was stored, never in clear; Dates as their ISO text.
 */
function jsonCopy(value: unknown): unknown {
  const text = JSON.stringify(value, (_key, item: unknown) => (item instanceof HashedPassword ? item.hash : item));
  return text === undefined ? null : JSON.parse(text);
}

/** Dgraph sends `authHeader: { key, value }` when the schema configures an auth header (value: the caller's token). */
function authHeaderPart(model: SchemaModel, context: RequestContext): { authHeader?: LambdaAuthHeader } {
  const key = model.authorization?.header;
  if (!key) return {};
  const lower = key.toLowerCase();
  const name = Object.keys(context.headers).find((candidate) => candidate.toLowerCase() === lower);
  return { authHeader: { key, value: (name === undefined ? undefined : context.headers[name]) ?? '' } };
}
