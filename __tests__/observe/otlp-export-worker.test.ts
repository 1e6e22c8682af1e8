/**
 * Issue 16: span exports leave from a worker thread, so the exporter's HTTP client never runs on the main
 * thread beside the server's requests (otlp-export-worker.ts says what that cost). A local collector
 * receives what the worker sends.
 */
import { ExportResultCode } from '@opentelemetry/core';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { OtlpExportWorker } from '../../src/observe/otlp-export-worker';

interface Received {
  path: string | undefined;
  contentType: string | undefined;
  body: Buffer;
}

let collector: http.Server;
let received: Received[];
/** The status the collector answers with, and how long it waits before answering. */
let answer: { status: number; delayMs: number };
/** The standard variables the worker's exporter reads: the collector's address. */
let env: Record<string, string>;

beforeAll(async () => {
  collector = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url, contentType: req.headers['content-type'], body: Buffer.concat(chunks) });
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': String(req.headers['content-type']) });
        res.end(answer.status === 200 ? '' : 'refused');
      }, answer.delayMs);
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  env = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}` };
});

afterAll(async () => {
  await new Promise((resolve) => collector.close(resolve));
});

beforeEach(() => {
  received = [];
  answer = { status: 200, delayMs: 0 };
});

afterEach(() => jest.restoreAllMocks());

describe('OtlpExportWorker', () => {
  it.each([
    ['application/x-protobuf' as const, Uint8Array.from([0x0a, 0x03, 0x01, 0x02, 0x03])],
    ['application/json' as const, new TextEncoder().encode('{"resourceSpans":[]}')],
  ])('sends %s bodies unchanged to the traces path, with no HTTP request made on the main thread', async (contentType, body) => {
    const mainThreadRequests = [jest.spyOn(http, 'request'), jest.spyOn(https, 'request'), jest.spyOn(globalThis, 'fetch')];
    const worker = new OtlpExportWorker(env);
    try {
      const result = await worker.send(body, contentType);
      expect(result).toEqual({ code: ExportResultCode.SUCCESS });
      expect(received).toEqual([{ path: '/v1/traces', contentType, body: Buffer.from(body) }]);
      for (const spy of mainThreadRequests) expect(spy).not.toHaveBeenCalled();
    } finally {
      await worker.shutdown();
    }
  });

  it('reports a collector that refuses the export as a failure with the reason, without retrying a client error', async () => {
    answer = { status: 400, delayMs: 0 };
    const worker = new OtlpExportWorker(env);
    try {
      const result = await worker.send(Uint8Array.from([1]), 'application/x-protobuf');
      expect(result.code).toBe(ExportResultCode.FAILED);
      expect(result.error).toBeInstanceOf(Error);
      expect(result.error!.message).toMatch(/Bad Request|400/);
      expect(received).toHaveLength(1);
    } finally {
      await worker.shutdown();
    }
  });

  it('lets exports on their way finish before it shuts down, and fails the ones sent after', async () => {
    answer = { status: 200, delayMs: 300 };
    const worker = new OtlpExportWorker(env);
    const settled: string[] = [];
    const inFlight = worker.send(Uint8Array.from([7]), 'application/x-protobuf').then((result) => {
      settled.push('export');
      return result;
    });
    // Once the collector holds the request, the shutdown must wait for its answer.
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await worker.shutdown().then(() => settled.push('shutdown'));
    expect(await inFlight).toEqual({ code: ExportResultCode.SUCCESS });
    expect(settled).toEqual(['export', 'shutdown']);
    const late = await worker.send(Uint8Array.from([8]), 'application/x-protobuf');
    expect(late.code).toBe(ExportResultCode.FAILED);
    expect(late.error!.message).toBe('the OTLP export worker was shut down');
    expect(received).toHaveLength(1);
  });
});
