import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LeanTracerProvider } from '../../src/observe/lean-tracer.js';
import { registerTracerProvider } from '../../src/observe/otlp-tracing.js';
import { samplerOf } from '../../src/observe/trace-sampler.js';
import { describeRequestTracing } from './request-tracing';

// The provider the CLI exports through, registered as the CLI registers it, recording every trace the caller did not sample out.
describeRequestTracing((exporter) => {
  const provider = new LeanTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'autograph' }), sampler: samplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' }), spanProcessor: new SimpleSpanProcessor(exporter) });
  registerTracerProvider(provider);
  return provider;
});
