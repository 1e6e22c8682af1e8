/** Whether the environment asks for OTLP trace export (then the CLI loads otlp-tracing.ts; otherwise never). */
export function isOtlpExportConfigured(env: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}
