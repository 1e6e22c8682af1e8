/**
 * A LambdaHost decorator that times each `@lambda` call (one per call, or one per batch) into the lambda
 * metrics and runs it in an active span, so the store calls of the script's own `graphql()` requests
 * nest under it.
 */
import type { Attributes } from '@opentelemetry/api';
import type { LambdaBatchInput, LambdaCallInput, LambdaGraphqlExecutor, LambdaHost, LambdaResolverKind } from '../custom/index.js';
import type { LabelCap } from './label-cap.js';
import type { ServiceMetrics } from './metrics.js';
import { recordFailure, secondsSince, tracer } from './tracer.js';

export function observedLambdaHost(host: LambdaHost, metrics: ServiceMetrics | undefined, resolverNames: LabelCap): LambdaHost {
  async function observe<T>(name: string, attributes: Attributes, call: () => Promise<T>): Promise<T> {
    const resolver = resolverNames.label(name);
    return tracer.startActiveSpan(`lambda ${name}`, { attributes: { 'autograph.lambda.resolver': name, ...attributes } }, async (span) => {
      const started = performance.now();
      try {
        return await call();
      } catch (error) {
        metrics?.lambdaCallFailures.inc({ resolver });
        recordFailure(span, error);
        throw error;
      } finally {
        metrics?.lambdaCallDuration.observe({ resolver }, secondsSince(started));
        span.end();
      }
    });
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
