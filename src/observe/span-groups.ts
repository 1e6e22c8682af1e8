import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';

/**
 * Spans by resource, then by instrumentation scope (name, version and schema URL), each in order of first
 * appearance: the nesting of an OTLP export request (`resourceSpans[].scopeSpans[].spans[]`), grouped as
 * `@opentelemetry/otlp-transformer` groups them.
 */
export function groupByResourceAndScope(spans: readonly ReadableSpan[]): Map<Resource, Map<string, ReadableSpan[]>> {
  const byResource = new Map<Resource, Map<string, ReadableSpan[]>>();
  let lastScope: ReadableSpan['instrumentationScope'] | undefined;
  let lastResource: Resource | undefined;
  let lastGroup: ReadableSpan[] = [];
  for (const span of spans) {
    // Consecutive spans nearly always share both: skip the keyed lookups then.
    if (span.instrumentationScope === lastScope && span.resource === lastResource) {
      lastGroup.push(span);
      continue;
    }
    let scopes = byResource.get(span.resource);
    if (!scopes) {
      scopes = new Map();
      byResource.set(span.resource, scopes);
    }
    const scope = span.instrumentationScope;
    const key = `${scope.name}@${scope.version || ''}:${scope.schemaUrl || ''}`;
    let group = scopes.get(key);
    if (!group) {
      group = [];
      scopes.set(key, group);
    }
    group.push(span);
    lastScope = scope;
    lastResource = span.resource;
    lastGroup = group;
  }
  return byResource;
}
