/** Whether the environment asks for OTLP trace export (then the CLI loads otlp-tracing.ts; otherwise never). */
export function isOtlpExportConfigured(env: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** An `OTEL_*` setting the service cannot follow; its message says which variable and what to set. */
export class OtlpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OtlpConfigError';
  }
}

/** The OTLP transports the CLI can export traces with. */
export const OTLP_TRACE_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpTraceProtocol = (typeof OTLP_TRACE_PROTOCOLS)[number];

/**
 * The protocol the standard variables ask for (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else
 * `OTEL_EXPORTER_OTLP_PROTOCOL`), `http/protobuf` when neither is set, as the OpenTelemetry specification
 * defaults. Throws, naming the variable, for a protocol this service cannot send (`grpc`).
 */
export function otlpTraceProtocolOf(env: Readonly<Record<string, string | undefined>>): OtlpTraceProtocol {
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const value = env[name]?.trim();
    if (!value) continue;
    if ((OTLP_TRACE_PROTOCOLS as readonly string[]).includes(value)) return value as OtlpTraceProtocol;
    throw new OtlpConfigError(`${name}=${value} is not supported: set it to ${OTLP_TRACE_PROTOCOLS.join(' or ')} (the collector's OTLP/HTTP receiver, port 4318 by default)`);
  }
  return 'http/protobuf';
}

/** The `OTEL_BSP_*` variables the span batching follows, and the batch setting each one sets. */
const BATCH_VARIABLES = {
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 'maxExportBatchSize',
  OTEL_BSP_MAX_QUEUE_SIZE: 'maxQueueSize',
  OTEL_BSP_SCHEDULE_DELAY: 'scheduledDelayMillis',
} as const;

type BatchSetting = (typeof BATCH_VARIABLES)[keyof typeof BATCH_VARIABLES];

/** The batch settings the environment sets (the others keep the SDK's defaults); throws, naming it, for a value that is not a positive integer. */
export function spanBatchSettingsOf(env: Readonly<Record<string, string | undefined>>): Partial<Record<BatchSetting, number>> {
  const settings: Partial<Record<BatchSetting, number>> = {};
  for (const [name, setting] of Object.entries(BATCH_VARIABLES) as Array<[keyof typeof BATCH_VARIABLES, BatchSetting]>) {
    const text = env[name]?.trim();
    if (!text) continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value <= 0) throw new OtlpConfigError(`${name}=${text} is not a positive integer`);
    settings[setting] = value;
  }
  return settings;
}
