import { AlwaysOnSampler, ParentBasedSampler, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { describeRequestTracing } from './request-tracing';

// The SDK's own provider, as an operator's instrumentation would register it.
describeRequestTracing((exporter) => {
  // Records every trace, except those a caller's traceparent marks "not sampled" (the SDK's default sampler).
  const provider = new NodeTracerProvider({ sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register({ contextManager: null });
  return provider;
});
