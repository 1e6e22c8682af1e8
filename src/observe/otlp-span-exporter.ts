/**
 * The OTLP/HTTP export of `@opentelemetry/exporter-trace-otlp-proto` (or `-http` for JSON), put together
 * from the same parts: its HTTP export delegate, which reads the standard `OTEL_EXPORTER_OTLP_*` variables
 * (endpoint, headers, timeout, compression, certificates) and retries and limits concurrent exports as
 * there. Protobuf requests arrive already encoded (protobuf-span-batcher.ts writes each span's bytes as it
 * ends, the same bytes the library's serializer writes at about a quarter of its CPU time). JSON goes
 * through the library's serializer: written by hand it was barely faster, `JSON.stringify` being most of
 * its cost either way.
 */
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer, type IExportTraceServiceResponse, type ISerializer } from '@opentelemetry/otlp-transformer';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { EncodedSpanSender } from './protobuf-span-batcher.js';

/** Sends export requests already encoded as protobuf. */
export function createOtlpProtobufSender(): EncodedSpanSender {
  const serializer: ISerializer<Uint8Array, IExportTraceServiceResponse> = {
    serializeRequest: (body) => body,
    deserializeResponse: (body) => ProtobufTraceSerializer.deserializeResponse(body),
  };
  return new OTLPExporterBase(createOtlpHttpExportDelegate(convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }), serializer));
}

/** Exports spans as OTLP/JSON (for the SDK's batch span processor). */
export function createOtlpJsonSpanExporter(): SpanExporter {
  return new OTLPExporterBase(createOtlpHttpExportDelegate(convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }), JsonTraceSerializer));
}
