/**
 * The client side of `npm run bench -- subscriptions`, in processes of their own so that their CPU is not
 * the service's: SUBSCRIBERS graphql-ws connections (one subscription each) spread over GROUPS distinct
 * queries and, in one of the processes, a writer adding WRITES_PER_SECOND objects over HTTP once the
 * parent says "go" on stdin; it reports when the parent says "stop". Each subscriber notes, for every object it sees for the first time, the time
 * it arrived; the parent, which saw each object's commit, turns those into delays.
 *
 *   node dist/bench/subscription-clients.js <url> <subscribers> <groups> <offset> <firstSeq> <writesPerSecond> <seconds>
 *
 * Prints JSON lines: { ready, failures } once every subscriber has its first result, { wrote } when the
 * writer is done, then the report ({ receipts: [seq, receivedAt][], sent: [seq, sentAt][], writes, failures }).
 */
import readline from 'node:readline';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

const [url, subscribersText, groupsText, offsetText, firstSeqText, rateText, secondsText] = process.argv.slice(2);
const SUBSCRIBERS = Number(subscribersText);
const GROUPS = Number(groupsText);
/** This process's first subscriber number, so that processes spread over the groups alike. */
const OFFSET = Number(offsetText);
const FIRST_SEQ = Number(firstSeqText);
const WRITES_PER_SECOND = Number(rateText);
const SECONDS = Number(secondsText);

const WAVE = 50;

/** Resolves once `condition()` holds, or after five minutes. */
async function waitFor(condition: () => boolean): Promise<void> {
  const giveUpAt = Date.now() + 300_000;
  while (!condition() && Date.now() < giveUpAt) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * BENCH_QUERY=feed (default): the group's Items added since the run began, newest first: a live feed,
 * served through the `seq` index. BENCH_QUERY=top: the group's newest Items among all of them, which the
 * embedded store answers by sorting the group's share of the stored Items at every run.
 */
const TOP = process.env.BENCH_QUERY === 'top';
const QUERY = TOP
  ? 'subscription($group: Int!) { queryItem(filter: { group: { eq: $group } }, order: { desc: seq }, first: 50) { seq } }'
  : 'subscription($group: Int!, $since: Int!) { queryItem(filter: { group: { eq: $group }, seq: { ge: $since } }, order: { desc: seq }, first: 50) { seq } }';

async function main(): Promise<void> {
  const wsUrl = `${url!.replace(/^http/, 'ws')}/graphql`;
  const clients: Client[] = [];
  const receipts: Array<[number, number]> = [];
  const sent: Array<[number, number]> = [];
  let initial = 0;
  let failures = 0;
  /** The newest seq each subscriber has seen. */
  const newest = new Array<number>(SUBSCRIBERS).fill(-1);

  const errors = new Map<string, number>();
  const noteError = (error: unknown) => {
    failures++;
    const event = (Array.isArray(error) ? error[0] : error) as { code?: number; reason?: string; message?: string };
    const key = event.code !== undefined ? `close ${event.code} ${event.reason ?? ''}` : String(event.message ?? JSON.stringify(error));
    errors.set(key, (errors.get(key) ?? 0) + 1);
  };
  for (let i = 0; i < SUBSCRIBERS; i++) {
    // Connections open in waves of WAVE, each waiting for the one before to have its first results, as
    // clients arriving over a few seconds would; a thousand handshakes at once would time out on a loaded machine.
    if (i % WAVE === 0) await waitFor(() => initial + failures >= i);
    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    clients.push(client);
    client.subscribe(
      { query: QUERY, variables: TOP ? { group: (OFFSET + i) % GROUPS } : { group: (OFFSET + i) % GROUPS, since: FIRST_SEQ - 1 } },
      {
        next: (result) => {
          const items = ((result.data as { queryItem?: Array<{ seq: number }> } | undefined)?.queryItem ?? []);
          const now = Date.now();
          if (newest[i] === -1) {
            // The first result (one old Item, the feed's starting point).
            initial++;
            newest[i] = items[0]?.seq ?? FIRST_SEQ - 1;
            return;
          }
          if (items.length === 0) return;
          else for (const item of items) if (item.seq > newest[i]!) receipts.push([item.seq, now]);
          newest[i] = Math.max(newest[i]!, items[0]!.seq);
        },
        error: noteError,
        complete: () => undefined,
      },
    );
  }
  await waitFor(() => initial + failures >= SUBSCRIBERS);
  process.stdout.write(`${JSON.stringify({ ready: initial, failures, errors: Object.fromEntries(errors) })}\n`);
  const commands = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  await commands.next(); // "go"

  let writes = 0;
  const started = Date.now();
  if (WRITES_PER_SECOND > 0) {
    let seq = FIRST_SEQ;
    const interval = 1000 / WRITES_PER_SECOND;
    const mutation = 'mutation($input: [AddItemInput!]!) { addItem(input: $input) { numUids } }';
    while (Date.now() - started < SECONDS * 1000) {
      const wait = started + writes * interval - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const item = { seq, group: seq % GROUPS };
      sent.push([seq, Date.now()]);
      seq++;
      writes++;
      void fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: mutation, variables: { input: [item] } }) })
        .then((response) => response.json())
        .then((body) => {
          if ((body as { errors?: unknown }).errors) failures++;
        })
        .catch(() => failures++);
    }
    process.stdout.write(`${JSON.stringify({ wrote: writes })}\n`);
  }
  // The parent says "stop" once every write has committed and had time to be delivered.
  await commands.next();
  await Promise.all(clients.map((client) => client.dispose()));
  // A pipe takes a large write in parts: exit only once all of it is out.
  process.stdout.write(`${JSON.stringify({ done: true, writes, failures, receipts, sent })}\n`, () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
