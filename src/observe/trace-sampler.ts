import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-node';
import { OtlpConfigError } from './otlp-config.js';

/** The values of `OTEL_TRACES_SAMPLER` the SDK knows (the specification's, without the vendor ones). */
export const TRACE_SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/**
 * Dgraph's default share of traces recorded (`--trace ratio=0.01`), used when `OTEL_TRACES_SAMPLER` is unset:
 * every request still has a trace context (passed on to its `@custom` calls), but only about 1 in 100 records
 * and exports spans, unless the caller's `traceparent` decides (parent-based).
 */
export const DEFAULT_TRACE_RATIO = 0.01;

/**
 * The sampler `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` ask for, as the SDK reads them, except the
 * default: unset, it is `parentbased_traceidratio` at `OTEL_TRACES_SAMPLER_ARG` or else Dgraph's 1%, where the
 * SDK would record every trace (`parentbased_always_on`); a named ratio sampler without an argument records
 * every trace, as in the SDK. Where the SDK logs an error and falls back, this throws, naming the variable:
 * an operator who asked for a sampler gets it or a reason at start-up.
 */
export function samplerOf(env: Readonly<Record<string, string | undefined>>): Sampler {
  const asked = env.OTEL_TRACES_SAMPLER?.trim();
  if (!asked) return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratioOf(env, DEFAULT_TRACE_RATIO)) });
  if (!(TRACE_SAMPLERS as readonly string[]).includes(asked)) {
    throw new OtlpConfigError(`OTEL_TRACES_SAMPLER=${asked} is not supported: set it to one of ${TRACE_SAMPLERS.join(', ')}`);
  }
  switch (asked as TraceSamplerName) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratioOf(env, 1));
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratioOf(env, 1)) });
  }
}

function ratioOf(env: Readonly<Record<string, string | undefined>>, unset: number): number {
  const text = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!text) return unset;
  const ratio = Number(text);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new OtlpConfigError(`OTEL_TRACES_SAMPLER_ARG=${text} is not a sampling ratio: set it to a number from 0 to 1`);
  }
  return ratio;
}
