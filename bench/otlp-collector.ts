/**
 * A stand-in for an OpenTelemetry collector's OTLP/HTTP trace receiver, for the benchmarks: it accepts
 * `POST <prefix>/v1/traces` in either encoding (protobuf, the default of the CLI, or JSON), answers success,
 * and counts the spans it received per prefix, so each exporting process can be given its own endpoint.
 * It counts without decoding the spans, so that it costs the benchmark little.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const TRACES_PATH = '/v1/traces';
/** Each span of an OTLP/JSON export carries this key once (a parent's id is `"parentSpanId"`). */
const JSON_SPAN_MARKER = Buffer.from('"spanId":');

export interface OtlpCollector {
  /** What to put in `OTEL_EXPORTER_OTLP_ENDPOINT` for the spans to count under `name`. */
  endpointFor(name: string): string;
  /** Spans received so far under `name`. */
  spansOf(name: string): number;
  close(): Promise<void>;
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method !== 'POST' || !path.endsWith(TRACES_PATH)) {
        res.writeHead(404).end();
        return;
      }
      const name = path.slice(1, -TRACES_PATH.length);
      const body = Buffer.concat(chunks);
      const protobuf = req.headers['content-type'] === 'application/x-protobuf';
      spans.set(name, (spans.get(name) ?? 0) + (protobuf ? protobufSpanCount(body) : occurrences(body, JSON_SPAN_MARKER)));
      // An empty ExportTraceServiceResponse in either encoding.
      res.writeHead(200, { 'content-type': protobuf ? 'application/x-protobuf' : 'application/json' }).end(protobuf ? '' : '{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpointFor: (name) => `${origin}/${name}`,
    spansOf: (name) => spans.get(name) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

function occurrences(body: Buffer, marker: Buffer): number {
  let count = 0;
  for (let at = body.indexOf(marker); at >= 0; at = body.indexOf(marker, at + marker.length)) count += 1;
  return count;
}

/** The spans of a protobuf ExportTraceServiceRequest: resource_spans (1) → scope_spans (2) → spans (2). */
function protobufSpanCount(body: Buffer): number {
  let count = 0;
  for (const resourceSpans of delimitedFields(body, 0, body.length, 1)) {
    for (const scopeSpans of delimitedFields(body, resourceSpans.start, resourceSpans.end, 2)) {
      for (const _span of delimitedFields(body, scopeSpans.start, scopeSpans.end, 2)) count += 1;
    }
  }
  return count;
}

/** The length-delimited fields numbered `field` of the message in `body[start, end)`, skipping the others. */
function* delimitedFields(body: Buffer, start: number, end: number, field: number): Generator<{ start: number; end: number }> {
  let at = start;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = body[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < end) {
    const tag = varint();
    const wireType = tag % 8;
    if (wireType === 0) varint();
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const length = varint();
      if (Math.floor(tag / 8) === field) yield { start: at, end: at + length };
      at += length;
    } else throw new Error(`the export request holds wire type ${wireType}, which OTLP does not use`);
  }
}
