/**
 * Finished spans as an OTLP/JSON `ExportTraceServiceRequest`, the very text `@opentelemetry/otlp-transformer`'s
 * `JsonTraceSerializer` writes (same keys in the same order, ids in hex, times as decimal nanosecond
 * strings, `undefined` members left out), written straight into one string. The library builds an object
 * tree per span and hands it to `JSON.stringify`: with every trace sampled that was the largest single cost
 * of tracing (about a third of it), and its garbage the next. A resource's and a scope's text is written
 * once and reused, since every span of a process shares them.
 */
import type { AttributeValue, Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { groupByResourceAndScope } from './span-groups.js';

type Scope = ReadableSpan['instrumentationScope'];

const SPAN_FLAGS_HAS_IS_REMOTE = 0x100;
const SPAN_FLAGS_IS_REMOTE = 0x200;

const resourceTexts = new WeakMap<Resource, string>();

export function otlpJsonOfSpans(spans: readonly ReadableSpan[]): string {
  let text = '{"resourceSpans":[';
  let firstResource = true;
  for (const [resource, scopes] of groupByResourceAndScope(spans)) {
    text += `${firstResource ? '' : ','}{"resource":${resourceText(resource)},"scopeSpans":[`;
    firstResource = false;
    let firstScope = true;
    for (const scopeSpans of scopes.values()) {
      const scope = scopeSpans[0]!.instrumentationScope;
      text += `${firstScope ? '' : ','}{"scope":${scopeText(scope)},"spans":[`;
      firstScope = false;
      for (let i = 0; i < scopeSpans.length; i += 1) text += (i === 0 ? '' : ',') + spanText(scopeSpans[i]!);
      text += `]${optionalString('schemaUrl', scope.schemaUrl)}}`;
    }
    text += `]${resource.schemaUrl ? optionalString('schemaUrl', resource.schemaUrl) : ''}}`;
  }
  return `${text}]}`;
}

function resourceText(resource: Resource): string {
  let text = resourceTexts.get(resource);
  if (text === undefined) {
    text = `{"attributes":${attributesText(resource.attributes)},"droppedAttributesCount":0${resource.schemaUrl ? optionalString('schemaUrl', resource.schemaUrl) : ''}}`;
    resourceTexts.set(resource, text);
  }
  return text;
}

function scopeText(scope: Scope): string {
  return `{"name":${JSON.stringify(scope.name)}${optionalString('version', scope.version)}}`;
}

function spanText(span: ReadableSpan): string {
  const context = span.spanContext();
  const parentSpanId = span.parentSpanContext?.spanId;
  const status = span.status;
  return (
    `{"traceId":${JSON.stringify(context.traceId)},"spanId":${JSON.stringify(context.spanId)}` +
    (parentSpanId ? `,"parentSpanId":${JSON.stringify(parentSpanId)}` : '') +
    optionalString('traceState', context.traceState?.serialize()) +
    `,"name":${JSON.stringify(span.name)},"kind":${span.kind == null ? 0 : span.kind + 1}` +
    `,"startTimeUnixNano":"${nanosOf(span.startTime)}","endTimeUnixNano":"${nanosOf(span.endTime)}"` +
    `,"attributes":${attributesText(span.attributes)},"droppedAttributesCount":${span.droppedAttributesCount}` +
    `,"events":${listText(span.events, eventText)},"droppedEventsCount":${span.droppedEventsCount}` +
    `,"status":{"code":${status.code}${optionalString('message', status.message)}}` +
    `,"links":${listText(span.links, linkText)},"droppedLinksCount":${span.droppedLinksCount}` +
    `,"flags":${flagsOf(context, span.parentSpanContext?.isRemote)}}`
  );
}

function eventText(event: TimedEvent): string {
  return (
    `{"attributes":${event.attributes ? attributesText(event.attributes) : '[]'},"name":${JSON.stringify(event.name)}` +
    `,"timeUnixNano":"${nanosOf(event.time)}","droppedAttributesCount":${event.droppedAttributesCount || 0}}`
  );
}

function linkText(link: Link): string {
  return (
    `{"attributes":${link.attributes ? attributesText(link.attributes) : '[]'},"spanId":${JSON.stringify(link.context.spanId)}` +
    `,"traceId":${JSON.stringify(link.context.traceId)}${optionalString('traceState', link.context.traceState?.serialize())}` +
    `,"droppedAttributesCount":${link.droppedAttributesCount || 0},"flags":${flagsOf(link.context, link.context.isRemote)}}`
  );
}

/** The W3C trace flags in the low byte, and whether the parent (or linked) context was remote. */
function flagsOf(context: SpanContext, isRemote: boolean | undefined): number {
  return (context.traceFlags & 0xff) | SPAN_FLAGS_HAS_IS_REMOTE | (isRemote ? SPAN_FLAGS_IS_REMOTE : 0);
}

function listText<T>(items: readonly T[], textOf: (item: T) => string): string {
  if (items.length === 0) return '[]';
  let text = '[';
  for (let i = 0; i < items.length; i += 1) text += (i === 0 ? '' : ',') + textOf(items[i]!);
  return `${text}]`;
}

function attributesText(attributes: Attributes): string {
  let text = '[';
  let first = true;
  for (const key of Object.keys(attributes)) {
    text += `${first ? '' : ','}{"key":${JSON.stringify(key)},"value":${anyValueText(attributes[key])}}`;
    first = false;
  }
  return `${text}]`;
}

function anyValueText(value: AttributeValue | Attributes | undefined | null): string {
  switch (typeof value) {
    case 'string':
      return `{"stringValue":${JSON.stringify(value)}}`;
    case 'number':
      return Number.isInteger(value) ? `{"intValue":${value}}` : `{"doubleValue":${JSON.stringify(value)}}`;
    case 'boolean':
      return `{"boolValue":${value}}`;
  }
  if (value instanceof Uint8Array) return `{"bytesValue":"${Buffer.from(value).toString('base64')}"}`;
  if (Array.isArray(value)) return `{"arrayValue":{"values":${listText(value as unknown[], (item) => anyValueText(item as AttributeValue))}}}`;
  if (typeof value === 'object' && value !== null) return `{"kvlistValue":{"values":${attributesText(value as Attributes)}}}`;
  return '{}';
}

/** `,"name":"value"`, or nothing when the value is undefined (as `JSON.stringify` leaves such a member out). */
function optionalString(name: string, value: string | undefined): string {
  return value === undefined ? '' : `,"${name}":${JSON.stringify(value)}`;
}

/** An `[seconds, nanoseconds]` time as decimal nanoseconds, exactly (the value passes 2^53, so no Number). */
function nanosOf([seconds, nanos]: HrTime): string {
  const wholeSeconds = Math.trunc(seconds);
  const wholeNanos = Math.trunc(nanos);
  if (wholeSeconds > 0 && wholeNanos >= 0 && wholeNanos < 1e9) return `${wholeSeconds}${String(wholeNanos).padStart(9, '0')}`;
  return (BigInt(wholeSeconds) * 1_000_000_000n + BigInt(wholeNanos)).toString();
}
