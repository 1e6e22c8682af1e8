/**
 * Sends OTLP/HTTP export requests from a worker thread. On the main thread, the exporter's HTTP client runs
 * the same functions of Node's `http` and stream modules as the server's requests and responses
 * (`OutgoingMessage`, `parserOnIncoming`, `Writable.write`, ...): each export, a client object among server
 * ones, deoptimized them again (`node --trace-deopt` under the getTask load: about 70 deoptimizations in
 * 10 s with 1% of the traces exported, 1–7 without export or with the export in a worker), and the
 * service paid for it on every request. The worker has an isolate of its own, so its client code shares
 * no optimized code and no type feedback with the server's.
 *
 * The worker runs the OTLP exporter of `@opentelemetry/otlp-exporter-base` (endpoint, headers, timeout,
 * compression and certificates from the standard `OTEL_EXPORTER_OTLP_*` variables, retries, limits on
 * concurrent exports) on bodies already encoded on the main thread.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { Worker } from 'node:worker_threads';

export type OtlpContentType = 'application/x-protobuf' | 'application/json';

type ToWorker = { kind: 'export'; id: number; contentType: OtlpContentType; body: Uint8Array } | { kind: 'shutdown'; id: number };
type FromWorker = { id: number; code: ExportResultCode; error?: string };

/**
 * The worker's program. A string evaluated by the worker, not a file of its own: the service runs both
 * compiled (`dist/`) and from TypeScript under the test runner, and a worker started from a file would need
 * the file in the form each of them loads. It uses only the libraries, whose paths the main thread resolves.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { OTLPExporterBase } = require(workerData.exporterBase);
const { createOtlpHttpExportDelegate, convertLegacyHttpOptions } = require(workerData.nodeHttp);
const { ProtobufTraceSerializer, JsonTraceSerializer } = require(workerData.transformer);
const exporters = new Map();
function exporterFor(contentType) {
  let exporter = exporters.get(contentType);
  if (!exporter) {
    const responses = contentType === 'application/json' ? JsonTraceSerializer : ProtobufTraceSerializer;
    const serializer = { serializeRequest: (body) => body, deserializeResponse: (body) => responses.deserializeResponse(body) };
    const options = convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': contentType });
    exporter = new OTLPExporterBase(createOtlpHttpExportDelegate(options, serializer));
    exporters.set(contentType, exporter);
  }
  return exporter;
}
parentPort.on('message', (message) => {
  if (message.kind === 'export') {
    exporterFor(message.contentType).export(message.body, (result) => {
      parentPort.postMessage({ id: message.id, code: result.code, error: result.error === undefined ? undefined : String(result.error.message ?? result.error) });
    });
  } else {
    Promise.allSettled([...exporters.values()].map((exporter) => exporter.shutdown())).then(() => parentPort.postMessage({ id: message.id, code: 0 }));
  }
});
`;

export class OtlpExportWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (result: ExportResult) => void>();
  private nextId = 0;
  /** Why the worker can no longer send (it failed or was shut down). */
  private stopped: Error | undefined;

  /** `env`: the variables the worker's exporter reads (`OTEL_EXPORTER_OTLP_*`). */
  constructor(env: Readonly<Record<string, string | undefined>>) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      env: { ...env },
      workerData: {
        exporterBase: require.resolve('@opentelemetry/otlp-exporter-base'),
        nodeHttp: require.resolve('@opentelemetry/otlp-exporter-base/node-http'),
        transformer: require.resolve('@opentelemetry/otlp-transformer'),
      },
    });
    // The worker keeps the process alive only while an export is on its way (see send).
    this.worker.unref();
    this.worker.on('message', (message: FromWorker) => this.settle(message.id, message.error === undefined ? { code: message.code } : { code: message.code, error: new Error(message.error) }));
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (exitCode) => this.stop(new Error(`the OTLP export worker stopped (exit code ${exitCode})`)));
  }

  /** Sends one export request's body; settles with the exporter's result, never rejects. */
  send(body: Uint8Array, contentType: OtlpContentType): Promise<ExportResult> {
    return this.ask((id) => ({ kind: 'export', id, contentType, body }));
  }

  /** Waits for the exports on their way, then stops the worker. */
  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.ask((id) => ({ kind: 'shutdown', id }));
    this.stop(new Error('the OTLP export worker was shut down'));
    await this.worker.terminate();
  }

  private ask(message: (id: number) => ToWorker): Promise<ExportResult> {
    if (this.stopped) return Promise.resolve({ code: ExportResultCode.FAILED, error: this.stopped });
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, resolve);
      this.worker.postMessage(message(id));
    });
  }

  private settle(id: number, result: ExportResult): void {
    const resolve = this.pending.get(id);
    if (!resolve) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
    resolve(result);
  }

  private stop(reason: Error): void {
    if (this.stopped) return;
    this.stopped = reason;
    for (const id of [...this.pending.keys()]) this.settle(id, { code: ExportResultCode.FAILED, error: reason });
  }
}
