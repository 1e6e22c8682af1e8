/**
 * Reads Prometheus's text exposition format (what `/metrics` answers) into samples, so tests compare
 * exact values: `valueOf(samples, 'autograph_graphql_requests_total', { outcome: 'ok' })`.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, raw] of (match[2] ?? '').matchAll(LABEL_PAIR)) {
      labels[name!] = raw!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
export function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}: give more labels`);
  return found[0]?.value;
}

/** The sum of every sample named `name` whose labels include `labels` (0 when there is none). */
export function sumOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** Scrapes `${baseUrl}/metrics`; fails the test on any status but 200. */
export async function scrapeMetrics(baseUrl: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await fetch(`${baseUrl}/metrics`, { headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}: ${text}`);
  return parsePrometheusText(text);
}
