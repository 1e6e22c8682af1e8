/**
 * A LambdaHost decorator that times each `@lambda` call (one per call, or one per batch) into the lambda
 * metrics and, given the request's trace context, wraps it in a span. (The script's own `graphql()`
 * requests are not HTTP requests: their store calls are counted, not traced.)
 */
import type { Attributes, Context } from '@opentelemetry/api';
import type { LambdaBatchInput, LambdaCallInput, LambdaGraphqlExecutor, LambdaHost, LambdaResolverKind, LambdaWebhookInput } from '../custom/index.js';
import type { LabelCap } from './label-cap.js';
import type { ServiceMetrics } from './metrics.js';
import { timedCall, tracer } from './tracer.js';

export function observedLambdaHost(
  host: LambdaHost,
  metrics: ServiceMetrics | undefined,
  resolverNames: LabelCap,
  traceContext: Context | undefined,
): LambdaHost {
  return new ObservedLambdaHost(host, metrics, resolverNames, traceContext);
}

/** A class rather than an object of closures: a traced request makes one, so it is one small allocation. */
class ObservedLambdaHost implements LambdaHost {
  constructor(
    private readonly host: LambdaHost,
    private readonly metrics: ServiceMetrics | undefined,
    private readonly resolverNames: LabelCap,
    private readonly traceContext: Context | undefined,
  ) {}

  load(scriptText: string): ReturnType<LambdaHost['load']> {
    return this.host.load(scriptText);
  }

  has(name: string): boolean {
    return this.host.has(name);
  }

  names(): ReturnType<LambdaHost['names']> {
    return this.host.names();
  }

  kindOf(name: string): LambdaResolverKind | undefined {
    return this.host.kindOf(name);
  }

  call(name: string, input: LambdaCallInput, graphql: LambdaGraphqlExecutor): ReturnType<LambdaHost['call']> {
    return this.observe(name, {}, () => this.host.call(name, input, graphql));
  }

  callBatch(name: string, input: LambdaBatchInput, graphql: LambdaGraphqlExecutor): ReturnType<LambdaHost['callBatch']> {
    return this.observe(name, { 'autograph.lambda.batch_size': input.parents.length }, () => this.host.callBatch(name, input, graphql));
  }

  hasWebhook(name: string): boolean {
    return this.host.hasWebhook(name);
  }

  webhookNames(): string[] {
    return this.host.webhookNames();
  }

  /** Webhooks run after their request has answered: counted by the webhook dispatcher's own metric, not timed here. */
  callWebhook(name: string, input: LambdaWebhookInput, graphql: LambdaGraphqlExecutor): Promise<void> {
    return this.host.callWebhook(name, input, graphql);
  }

  close(): ReturnType<LambdaHost['close']> {
    return this.host.close();
  }

  private async observe<T>(name: string, attributes: Attributes, call: () => Promise<T>): Promise<T> {
    const resolver = this.resolverNames.label(name);
    const span = this.traceContext ? tracer.startSpan(`lambda ${name}`, { attributes: { 'autograph.lambda.resolver': name, ...attributes } }, this.traceContext) : undefined;
    return timedCall(span, (seconds, failed) => this.metrics?.recordLambdaCall(resolver, seconds, failed), call);
  }
}
