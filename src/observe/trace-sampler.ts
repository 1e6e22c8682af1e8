import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-node';
import { OtlpConfigError } from './otlp-config.js';

/** The values of `OTEL_TRACES_SAMPLER` the SDK knows (the specification's, without the vendor ones). */
export const TRACE_SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/**
 * The sampler `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` ask for, as the SDK reads them:
 * `parentbased_always_on` when unset, a ratio of 1 when the argument is unset. Where the SDK logs an
 * error and falls back, this throws, naming the variable: an operator who asked for a sampler gets it or a
 * reason at start-up.
 */
export function samplerOf(env: Readonly<Record<string, string | undefined>>): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on';
  if (!(TRACE_SAMPLERS as readonly string[]).includes(name)) {
    throw new OtlpConfigError(`OTEL_TRACES_SAMPLER=${name} is not supported: set it to one of ${TRACE_SAMPLERS.join(', ')}`);
  }
  switch (name as TraceSamplerName) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratioOf(env));
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratioOf(env)) });
  }
}

function ratioOf(env: Readonly<Record<string, string | undefined>>): number {
  const text = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!text) return 1;
  const ratio = Number(text);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new OtlpConfigError(`OTEL_TRACES_SAMPLER_ARG=${text} is not a sampling ratio: set it to a number from 0 to 1`);
  }
  return ratio;
}
