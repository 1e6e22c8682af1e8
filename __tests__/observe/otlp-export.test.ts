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

const ROOT = resolve(__dirname, '../..');
const REGISTER_TS = join(ROOT, '__tests__/helpers/register-ts.cjs');
const MAIN = join(ROOT, 'src/server/main.ts');
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

interface OtlpSpan {
  traceId: string;
  name: string;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

jest.setTimeout(120_000); // starts Node + ts-node, which takes seconds on a busy machine

let collector: Server;
let collectorUrl: string;
const received: Array<{ path: string; body: OtlpExport }> = [];

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport });
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

it('sends the spans of a request to the OTLP endpoint, with the service name and the caller trace id', async () => {
  const dataDir = await makeTempDir();
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('OTEL_')));
  const child = spawn(process.execPath, ['-r', REGISTER_TS, MAIN, '--port', '0', '--data', dataDir], {
    cwd: ROOT,
    env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl },
  });
  const exited = new Promise<number | null>((done) => child.on('close', done));
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    let url: string | undefined;
    const messages: string[] = [];
    while (url === undefined) {
      const next = await lines.next();
      if (next.done) throw new Error(`the CLI stopped before starting: ${messages.join(' | ')}`);
      const line = JSON.parse(next.value) as { msg: string; url?: string };
      messages.push(line.msg);
      if (line.msg === 'started') url = line.url;
    }
    expect(messages).toContain('exporting traces over OTLP/HTTP');
    expect((await uploadSchema(url, 'type Task {\n  id: ID!\n  title: String\n}\n')).status).toBe(200);
    const answer = await gql(url, 'query Titles { queryTask { title } }', undefined, { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` });
    expect(answer.body).toEqual({ data: { queryTask: [] } });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }

  expect(new Set(received.map((one) => one.path))).toEqual(new Set(['/v1/traces']));
  const resources = received.flatMap((one) => one.body.resourceSpans);
  const serviceNames = new Set(resources.map((resource) => resource.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue));
  expect(serviceNames).toEqual(new Set(['autograph']));
  const spans = resources.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
  const inCallerTrace = spans.filter((span) => span.traceId === TRACE_ID).map((span) => span.name).sort();
  expect(inCallerTrace).toEqual(['POST /graphql', 'find Task']);
});
