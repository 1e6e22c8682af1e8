/**
 * Issue 16: the CLI exports traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set. A local
 * collector receives the spans of a request, in the caller's trace, flushed when the service stops.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { gql, uploadSchema } from '../helpers/gql';
import { makeTempDir } from '../helpers/server';
import { WARM_UP_SPAN_NAME } from '../../src/observe/recording-warm-up.js';
// The generated decoder of the OTLP protobuf definitions, which the library ships (not among its exports).
import OTLP_PROTO = require('@opentelemetry/otlp-transformer/build/src/generated/root');

const ROOT = resolve(__dirname, '../..');
const REGISTER_TS = join(ROOT, '__tests__/helpers/register-ts.cjs');
const MAIN = join(ROOT, 'src/server/main.ts');
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** What the tests read of an export request, whichever its encoding. */
interface ReceivedExport {
  path: string;
  contentType: string | undefined;
  serviceNames: string[];
  spans: Array<{ traceId: string; name: string }>;
}

interface OtlpJsonExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: Array<{ traceId: string; name: string }> }>;
  }>;
}

/** The protobuf export request as protobufjs's generated decoder reads it (ids as bytes). */
interface OtlpProtobufExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: Array<{ traceId: Uint8Array; name: string }> }>;
  }>;
}

/** The part of the generated module the collector uses. */
interface GeneratedDecoders {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: { decode(body: Uint8Array): OtlpProtobufExport } } } } } };
}

/** The collector's decoding: JSON as sent, protobuf through the OTLP definitions' generated decoder. */
function readExport(path: string, contentType: string | undefined, body: Buffer): ReceivedExport {
  const request: OtlpJsonExport =
    contentType === 'application/x-protobuf'
      ? hexIds((OTLP_PROTO as unknown as GeneratedDecoders).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.decode(body))
      : (JSON.parse(body.toString('utf8')) as OtlpJsonExport);
  return {
    path,
    contentType,
    serviceNames: request.resourceSpans.map((entry) => entry.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue ?? ''),
    spans: request.resourceSpans.flatMap((entry) => entry.scopeSpans.flatMap((scope) => scope.spans.map(({ traceId, name }) => ({ traceId, name })))),
  };
}

function hexIds(request: OtlpProtobufExport): OtlpJsonExport {
  return {
    resourceSpans: request.resourceSpans.map((entry) => ({
      resource: entry.resource,
      scopeSpans: entry.scopeSpans.map((scope) => ({ spans: scope.spans.map((span) => ({ traceId: Buffer.from(span.traceId).toString('hex'), name: span.name })) })),
    })),
  };
}

jest.setTimeout(120_000); // starts Node + ts-node, which takes seconds on a busy machine

let collector: Server;
let collectorUrl: string;
const received: ReceivedExport[] = [];

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(readExport(req.url ?? '', req.headers['content-type'], Buffer.concat(chunks)));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((done) => collector.listen(0, '127.0.0.1', done));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});

afterAll(async () => {
  collector.closeAllConnections();
  await new Promise((done) => collector.close(done));
});

/** Starts the CLI with `env` added, and answers its URL once it has started (with its log messages so far). */
async function startCli(dataDir: string, extraEnv: Record<string, string>) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('OTEL_')));
  const child = spawn(process.execPath, ['-r', REGISTER_TS, MAIN, '--port', '0', '--data', dataDir], { cwd: ROOT, env: { ...env, ...extraEnv } });
  const exited = new Promise<number | null>((done) => child.on('close', done));
  return { child, exited };
}

it.each<{ protocol: string; extraEnv: Record<string, string>; contentType: string }>([
  { protocol: 'default', extraEnv: {}, contentType: 'application/x-protobuf' },
  { protocol: 'http/protobuf', extraEnv: { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, contentType: 'application/x-protobuf' },
  { protocol: 'http/json', extraEnv: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, contentType: 'application/json' },
])('sends the spans of a request to the OTLP endpoint ($protocol: $contentType), with the service name and the caller trace id', async ({ extraEnv, contentType }) => {
  received.length = 0;
  const dataDir = await makeTempDir();
  const { child, exited } = await startCli(dataDir, { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, ...extraEnv });
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    let url: string | undefined;
    const messages: string[] = [];
    let sampler: string | undefined;
    while (url === undefined) {
      const next = await lines.next();
      if (next.done) throw new Error(`the CLI stopped before starting: ${messages.join(' | ')}`);
      const line = JSON.parse(next.value) as { msg: string; url?: string; sampler?: string };
      messages.push(line.msg);
      if (line.msg === 'exporting traces over OTLP/HTTP') sampler = line.sampler;
      if (line.msg === 'started') url = line.url;
    }
    expect(messages).toContain('exporting traces over OTLP/HTTP');
    // No OTEL_TRACES_SAMPLER: Dgraph's default, 1% of the traces no caller decided for.
    expect(sampler).toBe('ParentBased{root=TraceIdRatioBased{0.01}, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}');
    expect((await uploadSchema(url, 'type Task {\n  id: ID!\n  title: String\n}\n')).status).toBe(200);
    const answer = await gql(url, 'query Titles { queryTask { title } }', undefined, { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` });
    expect(answer.body).toEqual({ data: { queryTask: [] } });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }

  expect(new Set(received.map((one) => `${one.path} ${one.contentType}`))).toEqual(new Set([`/v1/traces ${contentType}`]));
  expect(new Set(received.flatMap((one) => one.serviceNames))).toEqual(new Set(['autograph']));
  const inCallerTrace = received.flatMap((one) => one.spans).filter((span) => span.traceId === TRACE_ID).map((span) => span.name).sort();
  expect(inCallerTrace).toEqual(['POST /graphql', 'find Task']);
  // The start-up warm-up's synthetic traces (recording-warm-up.ts) are never exported.
  expect(received.flatMap((one) => one.spans).filter((span) => span.name === WARM_UP_SPAN_NAME)).toEqual([]);
});

it('refuses to start with a protocol it cannot send (grpc), naming the variable, with exit code 1', async () => {
  const dataDir = await makeTempDir();
  const { child, exited } = await startCli(dataDir, { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  try {
    expect(await exited).toBe(1);
  } finally {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
  expect(stderr).toBe('autograph: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: set it to http/protobuf or http/json (the collector\'s OTLP/HTTP receiver, port 4318 by default)\n');
});
