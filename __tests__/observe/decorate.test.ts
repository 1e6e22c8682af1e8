import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LambdaHost } from '../../src/custom/index.js';
import { createObservability, type ObservableServices } from '../../src/observe/index.js';
import { LeanTracerProvider } from '../../src/observe/lean-tracer.js';
import { registerTracerProvider } from '../../src/observe/otlp-tracing.js';
import { samplerOf } from '../../src/observe/trace-sampler.js';
import { createLogger } from '../../src/server/logger.js';
import type { Store } from '../../src/store/port.js';

/**
 * What a request's services are made of (observe/index.ts `decorate`): a request whose span records gets its
 * own store decoration (its store calls are its span's children), and its own lambda host and `@custom` fetch
 * only when the schema has `@lambda` or `@custom` fields; a request sampled out shares the schema's
 * decoration, except for the `@custom` fetch that sends its trace context on, when the schema has one.
 */
const exporter = new InMemorySpanExporter();
registerTracerProvider(
  new LeanTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'test' }), sampler: samplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' }), spanProcessor: new SimpleSpanProcessor(exporter) }),
);

const SAMPLED = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const SAMPLED_OUT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00';

type Part = 'store' | 'lambdaHost' | 'customHttp';

it.each<{ traceparent: string; customLogic: boolean; own: Part[] }>([
  { traceparent: SAMPLED, customLogic: true, own: ['store', 'lambdaHost', 'customHttp'] },
  { traceparent: SAMPLED, customLogic: false, own: ['store'] },
  { traceparent: SAMPLED_OUT, customLogic: true, own: ['customHttp'] },
  { traceparent: SAMPLED_OUT, customLogic: false, own: [] },
])('traceparent $traceparent, custom logic $customLogic: the request has its own $own', ({ traceparent, customLogic, own }) => {
  const observability = createObservability({ logger: createLogger('silent'), activeSchemaText: () => undefined });
  const services: ObservableServices = { store: { kind: 'embedded' } as unknown as Store, lambdaHost: {} as LambdaHost, customHttp: { fetch: async () => new Response('') } };
  const shared = observability.decorate(services);
  const req = Object.assign(new EventEmitter(), { method: 'POST', url: '/graphql', headers: { traceparent } }) as unknown as IncomingMessage;
  const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true, setHeader: () => res }) as unknown as ServerResponse;
  let decorated: ObservableServices | undefined;
  observability.requests.wrap((request) => {
    decorated = observability.decorate(services, request, customLogic);
  })(req, res);

  const parts: Part[] = ['store', 'lambdaHost', 'customHttp'];
  expect(parts.filter((part) => decorated![part] !== shared[part])).toEqual(own);
  if (own.length === 0) expect(decorated).toBe(shared);
  // The schema's decoration is made once: asked again, it is the same object.
  expect(observability.decorate(services)).toBe(shared);
});
