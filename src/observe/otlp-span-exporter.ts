/**
 * The OTLP/HTTP span export, sent from a worker thread (otlp-export-worker.ts) by the HTTP export of
 * `@opentelemetry/otlp-exporter-base`, which reads the standard `OTEL_EXPORTER_OTLP_*` variables (endpoint,
 * headers, timeout, compression, certificates) and retries and limits concurrent exports. Protobuf requests
 * arrive already encoded (protobuf-span-batcher.ts writes each span's bytes as it ends, the same bytes the
 * library's serializer writes at about a quarter of its CPU time). JSON goes through the library's
 * serializer on the main thread: written by hand it was barely faster, `JSON.stringify` being most of its
 * cost either way.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { OtlpExportWorker } from './otlp-export-worker.js';
import type { EncodedSpanSender } from './protobuf-span-batcher.js';

/** Sends export requests already encoded as protobuf. */
export function createOtlpProtobufSender(worker: OtlpExportWorker): EncodedSpanSender {
  return {
    export: (body, resultCallback) => void worker.send(body, 'application/x-protobuf').then(resultCallback),
    shutdown: () => worker.shutdown(),
  };
}

/** Exports spans as OTLP/JSON (for the SDK's batch span processor). */
export function createOtlpJsonSpanExporter(worker: OtlpExportWorker): SpanExporter {
  return {
    export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
      const body = JsonTraceSerializer.serializeRequest(spans);
      if (body === undefined) resultCallback({ code: ExportResultCode.FAILED, error: new Error('the spans could not be serialized as OTLP/JSON') });
      else void worker.send(body, 'application/json').then(resultCallback);
    },
    shutdown: () => worker.shutdown(),
  };
}
