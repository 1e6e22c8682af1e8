/**
 * The `fetch` that `@custom(http:)` calls go through: each request is timed into the `@custom` metrics by
 * target host and, given the request's trace context, gets a client span and carries that span's W3C trace
 * context (`traceparent`, and `tracestate` when set), so the called service joins the caller's trace. The time is until the answer's
 * headers arrive; a status other than 2xx or no answer counts as a failure.
 */
import { propagation, SpanKind, SpanStatusCode, trace, type Context, type Span, type TextMapSetter } from '@opentelemetry/api';
import type { LabelCap } from './label-cap.js';
import type { ServiceMetrics } from './metrics.js';
import { recordFailure, secondsSince, tracer } from './tracer.js';

const HEADERS_SETTER: TextMapSetter<Headers> = {
  set: (headers, name, value) => headers.set(name, value),
};

export function observedFetch(
  metrics: ServiceMetrics | undefined,
  hosts: LabelCap,
  traceContext: Context | undefined,
  send: typeof fetch = fetch,
): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const host = hosts.label(url.host);
    let span: Span | undefined;
    let sent = init;
    if (traceContext) {
      span = tracer.startSpan(
        method,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': method,
            'server.address': url.hostname,
            'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
            // Without the query string, which may carry argument values.
            'url.full': `${url.origin}${url.pathname}`,
          },
        },
        traceContext,
      );
      const headers = new Headers(init?.headers);
      propagation.inject(trace.setSpan(traceContext, span), headers, HEADERS_SETTER);
      sent = { ...init, headers };
    }
    const started = performance.now();
    let failed = false;
    try {
      const response = await send(input, sent);
      span?.setAttribute('http.response.status_code', response.status);
      if (!response.ok) {
        failed = true;
        span?.setStatus({ code: SpanStatusCode.ERROR, message: `answered ${response.status}` });
      }
      return response;
    } catch (error) {
      failed = true;
      if (span) recordFailure(span, error);
      throw error;
    } finally {
      metrics?.recordCustomCall(host, secondsSince(started), failed);
      span?.end();
    }
  };
}
