/**
 * A LambdaHost decorator that times each `@lambda` call (one per call, or one per batch) into the lambda
 * metrics and, given the request's trace context, wraps it in a span. (The script's own `graphql()`
 * requests are not HTTP requests: their store calls are counted, not traced.)
 */
import type { Attributes, Context } from '@opentelemetry/api';
import type { LambdaBatchInput, LambdaCallInput, LambdaGraphqlExecutor, LambdaHost, LambdaResolverKind } from '../custom/index.js';
import type { LabelCap } from './label-cap.js';
import type { ServiceMetrics } from './metrics.js';
import { recordFailure, secondsSince, tracer } from './tracer.js';

export function observedLambdaHost(
  host: LambdaHost,
  metrics: ServiceMetrics | undefined,
  resolverNames: LabelCap,
  traceContext: Context | undefined,
): LambdaHost {
  async function observe<T>(name: string, attributes: Attributes, call: () => Promise<T>): Promise<T> {
    const resolver = resolverNames.label(name);
    const span = traceContext && tracer.startSpan(`lambda ${name}`, { attributes: { 'autograph.lambda.resolver': name, ...attributes } }, traceContext);
    const started = performance.now();
    let failed = false;
    try {
      return await call();
    } catch (error) {
      failed = true;
      if (span) recordFailure(span, error);
      throw error;
    } finally {
      metrics?.recordLambdaCall(resolver, secondsSince(started), failed);
      span?.end();
    }
  }

  return {
    load: (scriptText: string) => host.load(scriptText),
    has: (name: string) => host.has(name),
    names: () => host.names(),
    kindOf: (name: string): LambdaResolverKind | undefined => host.kindOf(name),
    call: (name: string, input: LambdaCallInput, graphql: LambdaGraphqlExecutor) =>
      observe(name, {}, () => host.call(name, input, graphql)),
    callBatch: (name: string, input: LambdaBatchInput, graphql: LambdaGraphqlExecutor) =>
      observe(name, { 'autograph.lambda.batch_size': input.parents.length }, () => host.callBatch(name, input, graphql)),
    close: () => host.close(),
  };
}
