/**
 * The parts of an OTLP protobuf `ExportTraceServiceRequest` (protobuf-span-batcher.ts puts them together):
 * the very bytes `@opentelemetry/otlp-transformer`'s `ProtobufTraceSerializer` writes (same fields in the
 * same order, the same members left out), written straight into a buffer. The library first builds an object tree per span (ids converted to byte arrays,
 * times to 64-bit pairs through BigInt), then encodes it with protobufjs; with every trace sampled that was
 * the largest single cost of tracing, and its garbage the next. A resource is encoded once and reused.
 *
 * Field numbers are those of opentelemetry/proto/trace/v1/trace.proto and common/v1/common.proto.
 */
import type { AttributeValue, Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-node';
import { ProtoWriter } from './proto-writer.js';

const SPAN_FLAGS_HAS_IS_REMOTE = 0x100;
const SPAN_FLAGS_IS_REMOTE = 0x200;
const TWO_TO_32 = 4294967296;

const resourceBytes = new WeakMap<Resource, Uint8Array>();

/** One `ResourceSpans` entry of the request: the resource, then what `writeScopes` writes (its `ScopeSpans`). */
export function writeResourceSpans(writer: ProtoWriter, resource: Resource, writeScopes: () => void): void {
  const resourceSpans = writer.beginDelimited(1); // ExportTraceServiceRequest.resource_spans
  writer.bytesField(1, resourceBytesOf(resource)); // ResourceSpans.resource, as an already encoded message
  writeScopes();
  if (resource.schemaUrl) writer.stringField(3, resource.schemaUrl);
  writer.endDelimited(resourceSpans);
}

/** One `ScopeSpans` entry: the scope, then what `writeSpans` writes (its spans, each by `writeSpan`). */
export function writeScopeSpans(writer: ProtoWriter, scope: InstrumentationScope, writeSpans: () => void): void {
  const scopeStart = writer.beginDelimited(2); // ResourceSpans.scope_spans
  const scopeMessage = writer.beginDelimited(1); // ScopeSpans.scope
  writer.stringField(1, scope.name);
  if (scope.version !== undefined) writer.stringField(2, scope.version);
  writer.endDelimited(scopeMessage);
  writeSpans();
  if (scope.schemaUrl !== undefined) writer.stringField(3, scope.schemaUrl);
  writer.endDelimited(scopeStart);
}

function resourceBytesOf(resource: Resource): Uint8Array {
  let bytes = resourceBytes.get(resource);
  if (bytes === undefined) {
    const writer = new ProtoWriter(512);
    writeAttributes(writer, 1, resource.attributes);
    writer.uint32Field(2, 0); // dropped_attributes_count
    bytes = writer.finish();
    resourceBytes.set(resource, bytes);
  }
  return bytes;
}

/** A span as a `ScopeSpans.spans` entry. */
export function writeSpan(writer: ProtoWriter, span: ReadableSpan): void {
  const start = writer.beginDelimited(2); // ScopeSpans.spans
  const context = span.spanContext();
  writer.hexBytesField(1, context.traceId);
  writer.hexBytesField(2, context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState !== undefined) writer.stringField(3, traceState);
  const parentSpanId = span.parentSpanContext?.spanId;
  if (parentSpanId) writer.hexBytesField(4, parentSpanId);
  writer.stringField(5, span.name);
  writer.uint32Field(6, span.kind == null ? 0 : span.kind + 1);
  writeTime(writer, 7, span.startTime);
  writeTime(writer, 8, span.endTime);
  writeAttributes(writer, 9, span.attributes);
  writer.uint32Field(10, span.droppedAttributesCount);
  for (const event of span.events) writeEvent(writer, event);
  writer.uint32Field(12, span.droppedEventsCount);
  for (const link of span.links) writeLink(writer, link);
  writer.uint32Field(14, span.droppedLinksCount);
  const status = writer.beginDelimited(15);
  if (span.status.message !== undefined) writer.stringField(2, span.status.message);
  writer.uint32Field(3, span.status.code);
  writer.endDelimited(status);
  writer.fixed32Field(16, flagsOf(context, span.parentSpanContext?.isRemote));
  writer.endDelimited(start);
}

function writeEvent(writer: ProtoWriter, event: TimedEvent): void {
  const start = writer.beginDelimited(11); // Span.events
  writeTime(writer, 1, event.time);
  writer.stringField(2, event.name);
  if (event.attributes) writeAttributes(writer, 3, event.attributes);
  writer.uint32Field(4, event.droppedAttributesCount || 0);
  writer.endDelimited(start);
}

function writeLink(writer: ProtoWriter, link: Link): void {
  const start = writer.beginDelimited(13); // Span.links
  writer.hexBytesField(1, link.context.traceId);
  writer.hexBytesField(2, link.context.spanId);
  const traceState = link.context.traceState?.serialize();
  if (traceState !== undefined) writer.stringField(3, traceState);
  if (link.attributes) writeAttributes(writer, 4, link.attributes);
  writer.uint32Field(5, link.droppedAttributesCount || 0);
  writer.fixed32Field(6, flagsOf(link.context, link.context.isRemote));
  writer.endDelimited(start);
}

/** The W3C trace flags in the low byte, and whether the parent (or linked) context was remote. */
function flagsOf(context: SpanContext, isRemote: boolean | undefined): number {
  return (context.traceFlags & 0xff) | SPAN_FLAGS_HAS_IS_REMOTE | (isRemote ? SPAN_FLAGS_IS_REMOTE : 0);
}

/** Each attribute as a `KeyValue` in the repeated field `field`. */
function writeAttributes(writer: ProtoWriter, field: number, attributes: Attributes): void {
  for (const key of Object.keys(attributes)) {
    const keyValue = writer.beginDelimited(field);
    writer.stringField(1, key);
    writeAnyValue(writer, 2, attributes[key]);
    writer.endDelimited(keyValue);
  }
}

/** An `AnyValue` message in field `field`: a value of no known type is an empty one. */
function writeAnyValue(writer: ProtoWriter, field: number, value: AttributeValue | Attributes | null | undefined): void {
  const start = writer.beginDelimited(field);
  if (typeof value === 'string') writer.stringField(1, value);
  else if (typeof value === 'boolean') writer.boolField(2, value);
  else if (typeof value === 'number') {
    if (Number.isInteger(value)) writer.int64Field(3, value);
    else writer.doubleField(4, value);
  } else if (value instanceof Uint8Array) writer.bytesField(7, value);
  else if (Array.isArray(value)) {
    const array = writer.beginDelimited(5);
    for (const item of value as unknown[]) writeAnyValue(writer, 1, item as AttributeValue);
    writer.endDelimited(array);
  } else if (typeof value === 'object' && value !== null) {
    const list = writer.beginDelimited(6);
    writeAttributes(writer, 1, value as Attributes);
    writer.endDelimited(list);
  }
  writer.endDelimited(start);
}

/** An `[seconds, nanoseconds]` time as a `fixed64` of nanoseconds, in exact 32-bit halves (it passes 2^53). */
function writeTime(writer: ProtoWriter, field: number, [seconds, nanos]: HrTime): void {
  const wholeSeconds = Math.trunc(seconds);
  const wholeNanos = Math.trunc(nanos);
  if (wholeSeconds < 0 || wholeSeconds >= TWO_TO_32 || wholeNanos < 0 || wholeNanos >= TWO_TO_32) {
    const total = BigInt(wholeSeconds) * 1_000_000_000n + BigInt(wholeNanos);
    writer.fixed64Field(field, Number(BigInt.asUintN(32, total)), Number(BigInt.asUintN(32, total >> 32n)));
    return;
  }
  // seconds × 10^9 = (upper × 2^16 + lower) × 10^9: each product stays below 2^53, so every step is exact.
  const upper = Math.floor(wholeSeconds / 65536);
  const lower = wholeSeconds % 65536;
  const upperProduct = upper * 1e9; // < 2^46
  let high = Math.floor(upperProduct / TWO_TO_32) * 65536 + Math.floor((upperProduct % TWO_TO_32) / 65536);
  let low = (upperProduct % 65536) * 65536;
  const rest = lower * 1e9 + wholeNanos; // < 2^47
  low += rest % TWO_TO_32;
  high += Math.floor(rest / TWO_TO_32);
  if (low >= TWO_TO_32) {
    low -= TWO_TO_32;
    high += 1;
  }
  writer.fixed64Field(field, low, high >>> 0);
}
