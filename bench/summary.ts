/**
 * The API benchmark's figures per data size (one JSON line per size, written by bench/api.ts) and the
 * table across sizes that bench/run.ts prints from them: how each scenario and the memory grow with the data.
 */
import type { Measurement } from './measure.js';
import { MIB } from './memory.js';

export interface SizeFacts {
  tasks: number;
  /** Tasks and Users. */
  objects: number;
  loadSeconds: number;
  /** Bytes of resident memory of the service running with no data yet, after the load, and after the restart. */
  rssEmpty: number;
  rssLoaded: number;
  restartSeconds: number;
  rssRestarted: number;
}

export interface ScenarioSummary {
  name: string;
  autograph: Measurement;
  inMemory: Measurement;
  handWritten: Measurement;
  /** The in-memory baseline's schema and resolvers served by Apollo Server. */
  inMemoryOnApollo: Measurement;
  /** Autograph ÷ in-memory: the median over the rounds of the in-memory requests/s over Autograph's. */
  slowdownVersusInMemory: number;
}

export interface SizeSummary {
  facts: SizeFacts;
  scenarios: ScenarioSummary[];
}

const cell = (text: string, width: number) => text.padStart(width);

/** Lines of a table: one row per scenario, one column per size (Autograph req/s, p50, slowdown), then the sizes' facts. */
export function tableAcrossSizes(sizes: readonly SizeSummary[]): string[] {
  const width = 36;
  const header = `${'scenario'.padEnd(18)}${sizes.map((size) => cell(`${size.facts.tasks.toLocaleString('en')} tasks`, width)).join('')}`;
  const names = [...new Set(sizes.flatMap((size) => size.scenarios.map((scenario) => scenario.name)))];
  const rows = names.map((name) => {
    const cells = sizes.map((size) => {
      const found = size.scenarios.find((scenario) => scenario.name === name);
      if (!found) return cell('-', width);
      const { autograph } = found;
      // JSON turns an infinite ratio (no request completed) into null.
      const ratio = Number.isFinite(found.slowdownVersusInMemory) && found.slowdownVersusInMemory !== null ? `${found.slowdownVersusInMemory.toFixed(1)}x` : 'n/a';
      return cell(`${autograph.requestsPerSecond.toFixed(0)} req/s p50 ${autograph.p50} ms, ${ratio}`, width);
    });
    return `${name.padEnd(18)}${cells.join('')}`;
  });
  const fact = (label: string, format: (facts: SizeFacts) => string) =>
    `${label.padEnd(18)}${sizes.map((size) => cell(format(size.facts), width)).join('')}`;
  return [
    'Autograph per size (req/s, p50, and how many times slower than the in-memory baseline):',
    header,
    ...rows,
    fact('load', (facts) => `${facts.loadSeconds.toFixed(1)} s`),
    fact('RSS after load', (facts) => `${(facts.rssLoaded / MIB).toFixed(0)} MiB`),
    fact('per 100k objects', (facts) => `${(((facts.rssLoaded - facts.rssEmpty) / facts.objects) * 100_000 / MIB).toFixed(0)} MiB`),
    fact('restart', (facts) => `${facts.restartSeconds.toFixed(2)} s`),
  ];
}
