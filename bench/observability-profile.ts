/**
 * Where a traced request's CPU time goes, for the observability benchmark: a CPU profile of the variant's
 * process (taken with `node:inspector` during a load run of its own, outside the measured rounds), each
 * sample charged to the nearest frame on its stack that belongs to a part of observability (Node's own
 * functions and native code are charged to their caller: the export's HTTP request to the exporter, a
 * regexp to the function running it), and summed up by part.
 */
import inspector from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** The parts, tried in order against a frame's source URL. */
const PARTS: Array<{ name: string; pattern: RegExp }> = [
  { name: 'OTLP export (encoding, batching, HTTP)', pattern: /@opentelemetry\/otlp-|\/src\/observe\/(otlp-protobuf|proto-writer|otlp-span-exporter|protobuf-span-batcher)\./ },
  { name: 'spans (our tracer; OpenTelemetry API and SDK samplers)', pattern: /@opentelemetry\/|\/src\/observe\/(lean-tracer|recorded-span|span-ids|span-clock|trace-sampler)\./ },
  { name: 'prom-client and observe/metrics', pattern: /\/prom-client\/|\/src\/observe\/metrics\./ },
  { name: 'the rest of observe/ (request observer, decorators)', pattern: /\/src\/observe\// },
];
export const OTHER_PART = 'the service itself (Apollo, graphql-js, store, HTTP)';
export const GC_PART = 'garbage collection';

/** Shares of the process's busy samples, by part. */
export type PartShares = Record<string, number>;

export class ProfileSession {
  private readonly session = new inspector.Session();

  async start(): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: 250 });
    await this.session.post('Profiler.start');
  }

  async stop(): Promise<PartShares> {
    const { profile } = (await this.session.post('Profiler.stop')) as unknown as { profile: Profile };
    this.session.disconnect();
    return sharesOf(profile);
  }
}

function sharesOf(profile: Profile): PartShares {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const partOfNode = new Map<number, string>();
  const partOf = (id: number): string => {
    const known = partOfNode.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    let part: string;
    if (node.callFrame.functionName === '(garbage collector)') part = GC_PART;
    else {
      const { url } = node.callFrame;
      const ownCode = url !== '' && !url.startsWith('node:');
      const matched = ownCode ? PARTS.find((candidate) => candidate.pattern.test(url))?.name : undefined;
      const parent = parentOf.get(id);
      part = matched ?? (ownCode || parent === undefined ? OTHER_PART : partOf(parent));
    }
    partOfNode.set(id, part);
    return part;
  };
  const counts = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const name = byId.get(id)!.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') continue;
    busy += 1;
    const part = partOf(id);
    counts.set(part, (counts.get(part) ?? 0) + 1);
  }
  const shares: PartShares = {};
  for (const part of [...PARTS.map((candidate) => candidate.name), GC_PART, OTHER_PART]) shares[part] = (counts.get(part) ?? 0) / Math.max(1, busy);
  return shares;
}
