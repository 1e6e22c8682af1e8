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
  /** The start time the caller gave, if any; otherwise now. */
  startTime: TimeInput | undefined;
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
  /** The monotonic clock at the start, when the start was read rather than given (the end is then measured from it). */
  private readonly startMonotonicMs: number | undefined;
  private readonly startEpochMs: number;
  /** Epoch milliseconds; NaN while the span runs. */
  private endEpochMs = Number.NaN;
  /** Times given as `[seconds, nanoseconds]`, kept exactly (epoch milliseconds in a double lose nanoseconds). */
  private readonly givenStart: HrTime | undefined;
  private givenEnd: HrTime | undefined;
  private attributeCount: number;

  constructor(start: SpanStart) {
    this.name = start.name;
    this.kind = start.kind;
    this.context = start.spanContext;
    this.parentSpanContext = start.parentSpanContext;
    this.attributes = start.attributes;
    const keys = Object.keys(start.attributes);
    for (let i = SPAN_LIMITS.attributes; i < keys.length; i += 1) delete start.attributes[keys[i]!];
    this.attributeCount = Math.min(keys.length, SPAN_LIMITS.attributes);
    this.droppedAttributesCount = keys.length - this.attributeCount;
    this.links = start.links;
    this.resource = start.resource;
    this.instrumentationScope = start.scope;
    this.clock = start.clock;
    this.sink = start.sink;
    if (start.startTime === undefined) {
      this.startMonotonicMs = performance.now();
      this.startEpochMs = start.clock.epochMsAt(this.startMonotonicMs);
    } else {
      this.startEpochMs = start.clock.epochMsOf(start.startTime);
      if (Array.isArray(start.startTime)) this.givenStart = start.startTime;
    }
  }

  spanContext(): SpanContext {
    return this.context;
  }

  get startTime(): HrTime {
    return this.givenStart ?? hrTimeOfEpochMs(this.startEpochMs);
  }

  /** `[0, 0]` until the span ends, as the SDK's. */
  get endTime(): HrTime {
    if (!this.ended) return [0, 0];
    return this.givenEnd ?? (this.endEpochMs === this.startEpochMs ? this.startTime : hrTimeOfEpochMs(this.endEpochMs));
  }

  get duration(): HrTime {
    if (!this.ended) return [-1, -1];
    const [startSeconds, startNanos] = this.startTime;
    const [endSeconds, endNanos] = this.endTime;
    return endNanos >= startNanos ? [endSeconds - startSeconds, endNanos - startNanos] : [endSeconds - startSeconds - 1, endNanos - startNanos + 1e9];
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
    const eventTime = Array.isArray(time) ? time : hrTimeOfEpochMs(time === undefined ? this.clock.epochMsAt(performance.now()) : this.clock.epochMsOf(time));
    this.events.push({ name, attributes: copyAttributes(attributes), time: eventTime, droppedAttributesCount: 0 });
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

  /**
   * Ends the span once (later calls change nothing) and hands it to the sink. Without an end time: its start
   * plus the monotonic time since, or now when its start was given. An end before the start is the start.
   */
  end(endTime?: TimeInput): void {
    if (this.ended) return;
    let endEpochMs: number;
    if (endTime !== undefined) endEpochMs = this.clock.epochMsOf(endTime);
    else if (this.startMonotonicMs !== undefined) endEpochMs = this.startEpochMs + (performance.now() - this.startMonotonicMs);
    else endEpochMs = this.clock.epochMsAt(performance.now());
    if (endEpochMs <= this.startEpochMs) this.endEpochMs = this.startEpochMs;
    else {
      this.endEpochMs = endEpochMs;
      if (Array.isArray(endTime)) this.givenEnd = endTime;
    }
    this.sink.onEnd(this);
  }
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
