/**
 * The attacker of the hostile benchmark (bench/hostile.ts), as a process of its own: one loop per hostile
 * case sends that case again and again to the service until the end time, each request bounded by a
 * client time-out. Prints one JSON line: per case, how many requests were sent and what they got
 * (`<status> <first error code>`, `200 ok`, or the client-side failure).
 *
 *   node hostile-attacker.js '{"url":"http://127.0.0.1:PORT","endsAt":<epoch ms>,"requestTimeoutMs":20000,"schema":"...","cases":["apq"]}'
 */
import { createHash } from 'node:crypto';

export interface AttackOptions {
  url: string;
  /** Keys of the cases to send (see hostileCases); all when absent. */
  cases?: string[];
  /** When the loops stop starting requests (epoch ms). */
  endsAt: number;
  /** Client time-out of one hostile request. */
  requestTimeoutMs: number;
}

/** Per case: answers by kind (`200 LAMBDA_FAILED`, `400 GRAPHQL_VALIDATION_FAILED`, `timeout`, ...). */
export type AttackReport = Record<string, Record<string, number>>;

interface HostileRequest {
  path: '/graphql' | '/admin/schema';
  body: string;
  contentType: string;
}

/** 20 nested pairs of crew { missions { ... } }: each level multiplies the answer (issue 12). */
export function deepCrewQuery(pairs = 20): string {
  let selection = 'designation';
  for (let i = 0; i < pairs; i += 1) selection = `designation crew { id missions { ${selection} } }`;
  return `{ queryMission { ${selection} } }`;
}

function graphqlRequest(query: string, extensions?: Record<string, unknown>): HostileRequest {
  return { path: '/graphql', contentType: 'application/json', body: JSON.stringify({ query, extensions }) };
}

function nestedNotFilter(depth: number): string {
  return `${'{ not: '.repeat(depth)}{ completed: true }${' }'.repeat(depth)}`;
}

/** The bench schema plus 10,000 small types: if it is ever accepted, the well-behaved queries still work. */
function hugeSchema(benchSchema: string): string {
  const extra = Array.from({ length: 10_000 }, (_, i) => `type Extra${i} {\n  id: ID!\n  name: String\n}`);
  return `${benchSchema}\n${extra.join('\n')}\n`;
}

let registrations = 0;

/** The hostile cases by key, each with its label and a function that builds its next request. */
export function hostileCases(benchSchema: string): Record<string, { label: string; next: () => HostileRequest }> {
  const deep = graphqlRequest(deepCrewQuery());
  const regexp = graphqlRequest('{ queryMission(filter: { designation: { regexp: "/(a+)+$/" } }) { designation } }');
  const hugeString = graphqlRequest('{ hugeString(n: 150000000) }');
  const bigBuffer = graphqlRequest('{ bigBuffer(mb: 1024) }');
  const schema: HostileRequest = { path: '/admin/schema', contentType: 'text/plain', body: hugeSchema(benchSchema) };
  const deepNot = graphqlRequest(`{ queryTask(filter: ${nestedNotFilter(1_000)}) { title } }`);
  return {
    deep: { label: 'crew/missions 20 levels', next: () => deep },
    regexp: { label: 'regexp /(a+)+$/ on 27 chars', next: () => regexp },
    'lambda-string': { label: 'lambda: 150M-char string', next: () => hugeString },
    'lambda-buffer': { label: 'lambda: 1 GiB ArrayBuffer filled', next: () => bigBuffer },
    schema: { label: 'schema upload: 10,000 types', next: () => schema },
    not: { label: 'filter: not nested 1,000 deep', next: () => deepNot },
    apq: {
      label: 'APQ: register a new query',
      next: () => {
        registrations += 1;
        const query = `query Flood${registrations} { queryTask(first: ${registrations}) { title } }`;
        return graphqlRequest(query, { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } });
      },
    },
  };
}

async function send(options: AttackOptions, request: HostileRequest): Promise<string> {
  try {
    const response = await fetch(`${options.url}${request.path}`, {
      method: 'POST',
      headers: { 'content-type': request.contentType },
      body: request.body,
      signal: AbortSignal.timeout(options.requestTimeoutMs),
    });
    const text = await response.text();
    let code = 'ok';
    try {
      const body = JSON.parse(text) as { errors?: Array<{ extensions?: { code?: string } }> };
      if (body.errors && body.errors.length > 0) code = body.errors[0]?.extensions?.code ?? 'error without code';
    } catch {
      code = 'not JSON';
    }
    return `${response.status} ${code}`;
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError') return `no answer within ${options.requestTimeoutMs} ms`;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return `connection failed${cause ? ` (${cause})` : ''}`;
  }
}

export async function attack(options: AttackOptions, benchSchema: string): Promise<AttackReport> {
  const report: AttackReport = {};
  const cases = Object.entries(hostileCases(benchSchema)).filter(([key]) => options.cases === undefined || options.cases.includes(key));
  await Promise.all(
    cases.map(async ([, { label, next }]) => {
      const answers: Record<string, number> = {};
      report[label] = answers;
      while (Date.now() < options.endsAt) {
        const answer = await send(options, next());
        answers[answer] = (answers[answer] ?? 0) + 1;
        // A refused connection answers at once: do not spin while the service is down.
        if (answer.startsWith('connection failed')) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }),
  );
  return report;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '') as AttackOptions & { schema: string };
  const report = await attack(options, options.schema);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
