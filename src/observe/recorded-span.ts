import {
  SpanStatusCode, type Attributes, type AttributeValue, type Exception, type HrTime, type Link, type Span, type SpanContext, type SpanKind, type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import { isAttributeValue, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-node';
import { hrTimeOfEpochMs, isTimeInput, type SpanClock } from './span-clock.js';

/** The SDK's default span limits (OTEL_SPAN_*_COUNT_LIMIT unset). */
export const SPAN_LIMITS = { attributes: 128, events: 128, links: 128 } as const;

/** Where a recorded span goes once ended (a span processor's `onEnd`). */
export interface SpanSink {
  onEnd(span: ReadableSpan): void;
}

/** What the tracer decided about a span before recording it. */
export interface SpanStart {
  name: string;
  kind: SpanKind;
  spanContext: SpanContext;
  parentSpanContext: SpanContext | undefined;
  /** Already copied from the caller's: the span keeps and changes this object. */
  attributes: Attributes;
  links: Link[];
  /** Epoch milliseconds when the caller gave a start time; otherwise now. */
  startEpochMs: number | undefined;
  resource: Resource;
  scope: InstrumentationScope;
  clock: SpanClock;
  sink: SpanSink;
}

/**
 * A sampled span, as the API's `Span` while it runs and as the SDK's `ReadableSpan` for processors and
 * exporters once ended. It keeps its times as epoch milliseconds (two numbers) and makes the `[seconds,
 * nanoseconds]` pairs only when an exporter reads them. What it does not keep: no per-span limit objects,
 * no self-metrics, no attribute value truncation (the SDK's default is none).
 */
export class RecordedSpan implements Span, ReadableSpan {
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly attributes: Attributes;
  readonly links: Link[];
  readonly events: TimedEvent[] = [];
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;
  name: string;
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;

  private readonly context: SpanContext;
  private readonly clock: SpanClock;
  private readonly sink: SpanSink;
  private readonly startMonotonicMs: number;
  private readonly startEpochMs: number;
  /** Epoch milliseconds; NaN while the span runs. */
  private endEpochMs = Number.NaN;
  private attributeCount: number;

  constructor(start: SpanStart) {
    this.name = start.name;
    this.kind = start.kind;
    this.context = start.spanContext;
    this.parentSpanContext = start.parentSpanContext;
    this.attributes = start.attributes;
    this.attributeCount = withinAttributeLimit(start.attributes);
    this.droppedAttributesCount = Object.keys(start.attributes).length - this.attributeCount;
    this.links = start.links;
    this.resource = start.resource;
    this.instrumentationScope = start.scope;
    this.clock = start.clock;
    this.sink = start.sink;
    this.startMonotonicMs = performance.now();
    this.startEpochMs = start.startEpochMs ?? start.clock.epochMsAt(this.startMonotonicMs);
  }

  spanContext(): SpanContext {
    return this.context;
  }

  get startTime(): HrTime {
    return hrTimeOfEpochMs(this.startEpochMs);
  }

  /** `[0, 0]` until the span ends, as the SDK's. */
  get endTime(): HrTime {
    return this.ended ? hrTimeOfEpochMs(this.endEpochMs) : [0, 0];
  }

  get duration(): HrTime {
    return this.ended ? hrTimeOfEpochMs(this.endEpochMs - this.startEpochMs) : [-1, -1];
  }

  get ended(): boolean {
    return !Number.isNaN(this.endEpochMs);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (this.ended || key.length === 0 || value == null || !isAttributeValue(value)) return this;
    if (!Object.hasOwn(this.attributes, key)) {
      if (this.attributeCount >= SPAN_LIMITS.attributes) {
        this.droppedAttributesCount += 1;
        return this;
      }
      this.attributeCount += 1;
    }
    this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key of Object.keys(attributes)) this.setAttribute(key, attributes[key]!);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    let attributes: Attributes | undefined;
    if (isTimeInput(attributesOrTime)) time ??= attributesOrTime;
    else attributes = attributesOrTime;
    if (this.events.length >= SPAN_LIMITS.events) {
      this.events.shift();
      this.droppedEventsCount += 1;
    }
    const epochMs = time === undefined ? this.clock.epochMsAt(performance.now()) : this.clock.epochMsOf(time);
    this.events.push({ name, attributes: copyAttributes(attributes), time: hrTimeOfEpochMs(epochMs), droppedAttributesCount: 0 });
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links.length >= SPAN_LIMITS.links) {
      this.droppedLinksCount += 1;
      return this;
    }
    this.links.push(link.attributes ? { context: link.context, attributes: copyAttributes(link.attributes) } : { context: link.context });
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  /** As the SDK: UNSET changes nothing, OK is final, and only an error keeps a message. */
  setStatus(status: SpanStatus): this {
    if (this.ended || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status = status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  /** The `exception` event of the semantic conventions (type, message, stack trace), as the SDK records it. */
  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception) {
      if (exception.code) attributes['exception.type'] = exception.code.toString();
      else if (exception.name) attributes['exception.type'] = exception.name;
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] !== undefined || attributes['exception.message'] !== undefined) this.addEvent('exception', attributes, time);
  }

  /** Ends the span once (later calls change nothing) and hands it to the sink. */
  end(endTime?: TimeInput): void {
    if (this.ended) return;
    const measured = endTime === undefined ? this.startEpochMs + (performance.now() - this.startMonotonicMs) : this.clock.epochMsOf(endTime);
    this.endEpochMs = Math.max(measured, this.startEpochMs);
    this.sink.onEnd(this);
  }
}

/** Keeps the first attributes up to the limit, removing the rest; answers how many are kept. */
function withinAttributeLimit(attributes: Attributes): number {
  const keys = Object.keys(attributes);
  for (let i = SPAN_LIMITS.attributes; i < keys.length; i += 1) delete attributes[keys[i]!];
  return Math.min(keys.length, SPAN_LIMITS.attributes);
}

/** The attributes with a value the API allows (null, undefined and objects left out), in a new object. */
export function copyAttributes(attributes: Attributes | undefined): Attributes {
  const copy: Attributes = {};
  if (attributes === undefined) return copy;
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    if (key.length > 0 && value != null && isAttributeValue(value)) copy[key] = Array.isArray(value) ? value.slice() : value;
  }
  return copy;
}
