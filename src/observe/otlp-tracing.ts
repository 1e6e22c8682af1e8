/**
 * Switches trace export on for the CLI when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: the Node SDK with the OTLP/HTTP exporter (otlp-span-exporter.ts), which reads the
 * standard `OTEL_*` variables (endpoint, headers, timeout; `OTEL_TRACES_SAMPLER` for sampling). Only
 * this file loads the SDK, and the CLI loads this file only when that variable is set; the rest of the
 * service uses the OpenTelemetry API alone.
 */
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { otlpTraceProtocolOf } from './otlp-config.js';
import { createOtlpSpanExporter } from './otlp-span-exporter.js';

export interface TraceExport {
  /** Sends the spans buffered so far (the batch processor otherwise waits for a full batch or its delay). */
  forceFlush(): Promise<void>;
  /** Sends the spans still buffered and stops exporting. */
  shutdown(): Promise<void>;
}

export function startOtlpTraceExport(env: Readonly<Record<string, string | undefined>>): TraceExport {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || 'autograph' }),
    spanProcessors: [new BatchSpanProcessor(createOtlpSpanExporter(otlpTraceProtocolOf(env)))],
  });
  // Registers the provider and the W3C trace context propagator, but no context manager: the service hands
  // each span's context on explicitly. An AsyncLocalStorage one would only cost: the batch processor's
  // export runs in `context.with`, which turns on promise hooks that every later promise of the process pays.
  provider.register({ contextManager: null });
  return { forceFlush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}
