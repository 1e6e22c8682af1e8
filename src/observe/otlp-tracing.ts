/**
 * Switches trace export on for the CLI when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: spans recorded by LeanTracerProvider, sampled as
 * `OTEL_TRACES_SAMPLER` says (trace-sampler.ts), batched as `OTEL_BSP_*` say and sent by the OTLP/HTTP
 * exporter from a worker thread (otlp-span-exporter.ts: endpoint, headers, timeout). Only this file loads the
 * SDK, and the CLI loads this file only when that variable is set; the rest of the service uses the
 * OpenTelemetry API alone.
 */
import { propagation, trace, type TracerProvider } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { LeanTracerProvider } from './lean-tracer.js';
import { otlpTraceProtocolOf, spanBatchSettingsOf } from './otlp-config.js';
import { OtlpExportWorker } from './otlp-export-worker.js';
import { createOtlpJsonSpanExporter, createOtlpProtobufSender } from './otlp-span-exporter.js';
import { ProtobufSpanBatcher } from './protobuf-span-batcher.js';
import { warmUpSpanRecording } from './recording-warm-up.js';
import { samplerOf } from './trace-sampler.js';

export interface TraceExport {
  /** The sampler in use, as the SDK names it (`ParentBased{root=TraceIdRatioBased{0.01}, ...}`), for the start-up log. */
  sampler: string;
  /** Sends the spans buffered so far (the batch processor otherwise waits for a full batch or its delay). */
  forceFlush(): Promise<void>;
  /** Sends the spans still buffered and stops exporting. */
  shutdown(): Promise<void>;
}

export function startOtlpTraceExport(env: Readonly<Record<string, string | undefined>>): TraceExport {
  const sampler = samplerOf(env);
  const resource = resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || 'autograph' });
  const provider = new LeanTracerProvider({ resource, sampler, spanProcessor: spanProcessorOf(env) });
  warmUpSpanRecording(resource);
  registerTracerProvider(provider);
  return { sampler: sampler.toString(), forceFlush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}

/**
 * Protobuf (the default): each span encoded as it ends, batches sent as bytes. JSON: the SDK's batch
 * processor and the library's serializer.
 */
function spanProcessorOf(env: Readonly<Record<string, string | undefined>>): SpanProcessor {
  const worker = new OtlpExportWorker(env);
  if (otlpTraceProtocolOf(env) === 'http/protobuf') return new ProtobufSpanBatcher(createOtlpProtobufSender(worker), spanBatchSettingsOf(env));
  return new BatchSpanProcessor(createOtlpJsonSpanExporter(worker));
}

/**
 * Makes `provider` the API's, with the W3C trace context and baggage propagators (the SDK's defaults), but
 * no context manager: the service hands each span's context on explicitly, and an AsyncLocalStorage one
 * would make every promise of the process pay for its hooks.
 */
export function registerTracerProvider(provider: TracerProvider): void {
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
}
