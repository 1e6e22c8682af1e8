import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { OtlpConfigError, spanBatchSettingsOf } from '../../src/observe/otlp-config.js';
import { ProtobufSpanBatcher, type EncodedSpanSender, type SpanBatchSettings } from '../../src/observe/protobuf-span-batcher.js';
import { until } from '../helpers/wait';
import { CASES, leanRecorder, recorder } from './span-cases';

/**
 * The batcher encodes each span as it ends and sends batches as bytes: what it sends must be what the
 * library's serializer writes for the same spans, batched as the SDK's BatchSpanProcessor batches.
 */

/** A sender that keeps each request and answers when (and how) the test says. */
function capturingSender(answerAtOnce = true) {
  const bodies: string[] = [];
  const answers: Array<(result: ExportResult) => void> = [];
  let shutdowns = 0;
  const sender: EncodedSpanSender = {
    export(body, resultCallback) {
      bodies.push(Buffer.from(body).toString('hex'));
      if (answerAtOnce) resultCallback({ code: ExportResultCode.SUCCESS });
      else answers.push(resultCallback);
    },
    shutdown: async () => {
      shutdowns += 1;
    },
  };
  return { sender, bodies, answers, shutdowns: () => shutdowns };
}

const library = (spans: ReadableSpan[]) => Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!).toString('hex');

/** `count` ended spans, each in a trace of its own. */
function spans(count: number, flags = TraceFlags.SAMPLED): ReadableSpan[] {
  const { exporter, tracer } = leanRecorder();
  for (let i = 0; i < count; i += 1) {
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: `${'a'.repeat(30)}${String(i).padStart(2, '0')}`, spanId: 'b7ad6b7169203331', traceFlags: flags, isRemote: true });
    tracer().startSpan(`span ${i}`, { attributes: { i } }, parent).end();
  }
  return exporter.getFinishedSpans();
}

function batcherOf(sender: EncodedSpanSender, settings: Partial<SpanBatchSettings> = {}) {
  return new ProtobufSpanBatcher(sender, { scheduledDelayMillis: 60_000, ...settings });
}

describe.each([
  { provider: "the SDK's spans", recorder },
  { provider: 'LeanTracerProvider spans', recorder: leanRecorder },
])('sends what ProtobufTraceSerializer writes, for $provider', ({ recorder }) => {
  it.each(CASES)('$name', async ({ make }) => {
    const { exporter, tracer } = recorder();
    make(tracer);
    const ended = exporter.getFinishedSpans();
    const { sender, bodies } = capturingSender();
    const batcher = batcherOf(sender);
    for (const span of ended) batcher.onEnd(span);
    await batcher.forceFlush();
    expect(bodies).toEqual([library(ended)]);
  });

  it('all the cases, several resources interleaved: one request, grouped by resource then scope', async () => {
    const first = recorder({ 'service.name': 'one' });
    const second = recorder({ 'service.name': 'two' });
    for (const { make } of CASES) {
      make(first.tracer);
      second.tracer().startSpan('between', {}, ROOT_CONTEXT).end();
    }
    const firstSpans = first.exporter.getFinishedSpans();
    const secondSpans = second.exporter.getFinishedSpans();
    const interleaved = firstSpans.flatMap((span, i) => (i < secondSpans.length ? [span, secondSpans[i]!] : [span]));
    const { sender, bodies } = capturingSender();
    const batcher = batcherOf(sender);
    for (const span of interleaved) batcher.onEnd(span);
    await batcher.forceFlush();
    expect(bodies).toEqual([library(interleaved)]);
  });
});

describe('batching', () => {
  it('sends a batch when it is full, the rest on flush; spans not sampled are left out', async () => {
    const sampled = spans(5);
    const { sender, bodies } = capturingSender();
    const batcher = batcherOf(sender, { maxExportBatchSize: 2 });
    for (const span of [...sampled.slice(0, 3), ...spans(2, TraceFlags.NONE), ...sampled.slice(3)]) batcher.onEnd(span);
    expect(bodies).toEqual([library(sampled.slice(0, 2)), library(sampled.slice(2, 4))]);
    await batcher.forceFlush();
    expect(bodies).toEqual([library(sampled.slice(0, 2)), library(sampled.slice(2, 4)), library(sampled.slice(4))]);
    await batcher.forceFlush();
    expect(bodies).toHaveLength(3);
  });

  it('sends a batch that is not full after the scheduled delay', async () => {
    const [span] = spans(1);
    const { sender, bodies } = capturingSender();
    const batcher = batcherOf(sender, { scheduledDelayMillis: 20 });
    batcher.onEnd(span!);
    expect(bodies).toEqual([]);
    await until(() => bodies.length === 1);
    expect(bodies).toEqual([library([span!])]);
  });

  it('drops spans while maxQueueSize spans wait (filling or unanswered), and takes them again once answered', async () => {
    const ended = spans(7);
    const { sender, bodies, answers } = capturingSender(false);
    const batcher = batcherOf(sender, { maxExportBatchSize: 2, maxQueueSize: 4 });
    for (const span of ended.slice(0, 6)) batcher.onEnd(span);
    expect(bodies).toEqual([library(ended.slice(0, 2)), library(ended.slice(2, 4))]);
    answers[0]!({ code: ExportResultCode.SUCCESS });
    batcher.onEnd(ended[6]!);
    const flushed = batcher.forceFlush();
    answers[1]!({ code: ExportResultCode.SUCCESS });
    answers[2]!({ code: ExportResultCode.SUCCESS });
    await flushed;
    expect(bodies).toEqual([library(ended.slice(0, 2)), library(ended.slice(2, 4)), library([ended[6]!])]);
  });

  it('a flush fails with the error of a failed export', async () => {
    const { sender, answers } = capturingSender(false);
    const batcher = batcherOf(sender);
    batcher.onEnd(spans(1)[0]!);
    const flushed = batcher.forceFlush();
    answers[0]!({ code: ExportResultCode.FAILED, error: new Error('collector answered 503') });
    await expect(flushed).rejects.toThrow(new Error('collector answered 503'));
  });

  it('shutdown sends what is left, shuts the sender down once, and ignores later spans', async () => {
    const ended = spans(2);
    const { sender, bodies, shutdowns } = capturingSender();
    const batcher = batcherOf(sender);
    batcher.onEnd(ended[0]!);
    await batcher.shutdown();
    await batcher.shutdown();
    batcher.onEnd(ended[1]!);
    await batcher.forceFlush();
    expect([bodies, shutdowns()]).toEqual([[library([ended[0]!])], 1]);
  });
});

describe('OTEL_BSP_* variables', () => {
  it.each<{ env: Record<string, string>; settings: Partial<SpanBatchSettings> }>([
    { env: {}, settings: {} },
    { env: { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '128', OTEL_BSP_MAX_QUEUE_SIZE: ' 4096 ', OTEL_BSP_SCHEDULE_DELAY: '1000' }, settings: { maxExportBatchSize: 128, maxQueueSize: 4096, scheduledDelayMillis: 1000 } },
    { env: { OTEL_BSP_SCHEDULE_DELAY: '' }, settings: {} },
  ])('$env → $settings', ({ env, settings }) => {
    expect(spanBatchSettingsOf(env)).toEqual(settings);
  });

  it.each([
    ['OTEL_BSP_MAX_QUEUE_SIZE', '0'],
    ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE', '1.5'],
    ['OTEL_BSP_SCHEDULE_DELAY', 'soon'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => spanBatchSettingsOf({ [name]: value })).toThrow(new OtlpConfigError(`${name}=${value} is not a positive integer`));
  });
});
