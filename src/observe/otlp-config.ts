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
