import { diag, TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { writeResourceSpans, writeScopeSpans, writeSpan } from './otlp-protobuf.js';
import { ProtoWriter } from './proto-writer.js';

/** Sends one encoded OTLP export request (the OTLP/HTTP exporter, given the bytes). */
export interface EncodedSpanSender {
  export(body: Uint8Array, resultCallback: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

/** The batch processor's settings, as the SDK's BatchSpanProcessor names and defaults them (`OTEL_BSP_*`). */
export interface SpanBatchSettings {
  maxExportBatchSize: number;
  maxQueueSize: number;
  scheduledDelayMillis: number;
}

const DEFAULT_SETTINGS: SpanBatchSettings = { maxExportBatchSize: 512, maxQueueSize: 2048, scheduledDelayMillis: 5000 };
/** A span with a few attributes takes about this much. */
const BYTES_PER_SPAN = 256;

/** The spans of one scope in the batch being filled, already encoded as `ScopeSpans.spans` entries. */
interface ScopeBatch {
  resource: Resource;
  scope: InstrumentationScope;
  writer: ProtoWriter;
}

/** The batch being filled: by resource, then scope, each in order of first appearance (as the library groups). */
type Batch = Map<Resource, Map<InstrumentationScope, ScopeBatch>>;

/**
 * A span processor that batches as the SDK's BatchSpanProcessor does (a batch goes when full or after the
 * scheduled delay; at most `maxQueueSize` spans waiting, the rest dropped), but writes each sampled span's
 * protobuf bytes the moment it ends instead of keeping the span object until its batch goes. Spans then
 * die young, in the collector's cheapest generation, instead of surviving to be encoded hundreds of
 * requests later; what a batch holds is bytes. The request sent is byte for byte what the library's
 * serializer writes for the same spans (the parts come from otlp-protobuf.ts).
 */
export class ProtobufSpanBatcher implements SpanProcessor {
  private readonly settings: SpanBatchSettings;
  private batch: Batch = new Map();
  private batchSpans = 0;
  private lastBatch: ScopeBatch | undefined;
  /** Spans in batches handed to the sender and not yet answered. */
  private sendingSpans = 0;
  private readonly sending = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private droppedSpans = 0;
  private stopped = false;

  constructor(private readonly sender: EncodedSpanSender, settings: Partial<SpanBatchSettings> = {}) {
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
    this.settings.maxExportBatchSize = Math.min(this.settings.maxExportBatchSize, this.settings.maxQueueSize);
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.batchSpans + this.sendingSpans >= this.settings.maxQueueSize) {
      if (this.droppedSpans === 0) diag.warn('ProtobufSpanBatcher: maxQueueSize reached, dropping spans');
      this.droppedSpans += 1;
      return;
    }
    writeSpan(this.scopeBatchOf(span).writer, span);
    this.batchSpans += 1;
    if (this.batchSpans >= this.settings.maxExportBatchSize) this.sendBatch();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.sendBatch(), this.settings.scheduledDelayMillis);
      this.timer.unref();
    }
  }

  /** Sends the batch being filled, and waits for every batch sent so far; fails if any of them failed. */
  async forceFlush(): Promise<void> {
    this.sendBatch();
    await Promise.all([...this.sending]);
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.forceFlush();
    } finally {
      this.stopped = true;
      await this.sender.shutdown();
    }
  }

  private scopeBatchOf(span: ReadableSpan): ScopeBatch {
    const { instrumentationScope: scope, resource } = span;
    // Consecutive spans nearly always share both: skip the keyed lookups then.
    if (scope === this.lastBatch?.scope && resource === this.lastBatch.resource) return this.lastBatch;
    let scopes = this.batch.get(resource);
    if (!scopes) {
      scopes = new Map();
      this.batch.set(resource, scopes);
    }
    let scopeBatch = scopes.get(scope);
    if (!scopeBatch) {
      scopeBatch = { resource, scope, writer: new ProtoWriter(this.settings.maxExportBatchSize * BYTES_PER_SPAN) };
      scopes.set(scope, scopeBatch);
    }
    this.lastBatch = scopeBatch;
    return scopeBatch;
  }

  private sendBatch(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batchSpans === 0) return;
    const body = requestOf(this.batch);
    const spans = this.batchSpans;
    this.batch = new Map();
    this.batchSpans = 0;
    this.lastBatch = undefined;
    this.sendingSpans += spans;
    const sent = new Promise<void>((resolve, reject) => {
      this.sender.export(body, (result) => {
        this.sendingSpans -= spans;
        if (result.code === ExportResultCode.SUCCESS) resolve();
        else reject(result.error ?? new Error('span export failed'));
      });
    });
    this.sending.add(sent);
    // A batch nobody flushes fails quietly, as the SDK's: its error is only logged.
    sent.then(
      () => this.sending.delete(sent),
      (error: unknown) => {
        this.sending.delete(sent);
        diag.error('ProtobufSpanBatcher: span export failed', error);
      },
    );
  }
}

/** The ExportTraceServiceRequest of the batch. */
function requestOf(batch: Batch): Uint8Array {
  let bytes = 0;
  for (const scopes of batch.values()) for (const { writer } of scopes.values()) bytes += writer.length + 128;
  const writer = new ProtoWriter(bytes + 512);
  for (const [resource, scopes] of batch) {
    writeResourceSpans(writer, resource, () => {
      for (const { scope, writer: encoded } of scopes.values()) writeScopeSpans(writer, scope, () => writer.raw(encoded.finish()));
    });
  }
  return writer.finish();
}
