/**
 * The OTLP/HTTP span exporter of `@opentelemetry/exporter-trace-otlp-proto` (or `-http` for JSON), put
 * together from the same parts: its HTTP export delegate, which reads the standard `OTEL_EXPORTER_OTLP_*`
 * variables (endpoint, headers, timeout, compression, certificates) and retries and limits concurrent
 * exports as there. One change: a protobuf body is written by otlp-protobuf.ts instead of the library's
 * serializer, which sends the same bytes at about four times the CPU time (with every trace sampled, the
 * largest single cost of tracing). JSON goes through the library's serializer: written by hand it was
 * barely faster, `JSON.stringify` being most of its cost either way. The CLI sends protobuf through
 * `createOtlpProtobufSender`, given requests protobuf-span-batcher.ts has already encoded.
 */
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer, type IExportTraceServiceResponse, type ISerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { OtlpTraceProtocol } from './otlp-config.js';
import { otlpProtobufOfSpans } from './otlp-protobuf.js';
import type { EncodedSpanSender } from './protobuf-span-batcher.js';

type SpanSerializer = ISerializer<ReadableSpan[], IExportTraceServiceResponse>;

const SERIALIZERS: Record<OtlpTraceProtocol, { contentType: string; serializer: SpanSerializer }> = {
  'http/protobuf': {
    contentType: 'application/x-protobuf',
    serializer: { serializeRequest: otlpProtobufOfSpans, deserializeResponse: (body) => ProtobufTraceSerializer.deserializeResponse(body) },
  },
  'http/json': {
    contentType: 'application/json',
    serializer: JsonTraceSerializer,
  },
};

export function createOtlpSpanExporter(protocol: OtlpTraceProtocol): SpanExporter {
  const { contentType, serializer } = SERIALIZERS[protocol];
  return new OTLPExporterBase(createOtlpHttpExportDelegate(convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': contentType }), serializer));
}

/** The same OTLP/HTTP export for requests already encoded as protobuf (protobuf-span-batcher.ts writes them). */
export function createOtlpProtobufSender(): EncodedSpanSender {
  const serializer: ISerializer<Uint8Array, IExportTraceServiceResponse> = {
    serializeRequest: (body) => body,
    deserializeResponse: (body) => ProtobufTraceSerializer.deserializeResponse(body),
  };
  return new OTLPExporterBase(createOtlpHttpExportDelegate(convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }), serializer));
}
