import { LambdaCallError, WebhookDispatcher, type CommittedMutation, type LambdaHost, type LambdaWebhookInput } from '../../src/custom/index.js';

/** The webhook queue's bounds and reports, with a host whose calls the test settles by hand. */

interface HeldCall {
  name: string;
  input: LambdaWebhookInput;
  settle(error?: Error): void;
}

function heldHost(webhooks: string[]): { host: LambdaHost; calls: HeldCall[] } {
  const calls: HeldCall[] = [];
  const host = {
    hasWebhook: (name: string) => webhooks.includes(name),
    webhookNames: () => [...webhooks],
    names: () => [],
    callWebhook: (name: string, input: LambdaWebhookInput) =>
      new Promise<void>((resolve, reject) => calls.push({ name, input, settle: (error) => (error ? reject(error) : resolve()) })),
  } as unknown as LambdaHost;
  return { host, calls };
}

function reports() {
  const seen: string[] = [];
  const warnings: string[] = [];
  return {
    seen,
    warnings,
    listener: {
      delivered: (name: string) => seen.push(`delivered ${name}`),
      failed: (name: string, failure: string) => seen.push(`failed ${name} ${failure}`),
      dropped: (name: string) => seen.push(`dropped ${name}`),
    },
    logger: { info: () => undefined, warn: (message: string) => warnings.push(message), error: () => undefined },
  };
}

const graphql = async () => ({ data: null });
const added = (name: string): CommittedMutation => ({ typeName: 'District', operation: 'add', rootIds: ['0x1'], input: [{ name }], graphql });

test('beyond the most calls waiting, an event is dropped, counted, and logged once until the queue has room', async () => {
  const { host, calls } = heldHost(['District.add']);
  const { seen, warnings, listener, logger } = reports();
  const dispatcher = new WebhookDispatcher({ host, listener, logger, concurrency: 1, maxPending: 2 });
  for (const name of ['a', 'b', 'c', 'd', 'e']) dispatcher.committed(added(name));
  expect(calls.map((call) => (call.input.event as { add: { input: Array<{ name: string }> } }).add.input[0]!.name)).toEqual(['a']);
  expect(dispatcher.pending).toBe(3);
  expect(seen).toEqual(['dropped District.add', 'dropped District.add']);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/^lambda: webhook District.add dropped: 2 calls \(\d+ bytes\) are waiting, the most allowed is 2 calls/);
  calls[0]!.settle();
  await new Promise((resolve) => setImmediate(resolve));
  calls[1]!.settle(new LambdaCallError('District.add', 'timeout', 'it did not finish within 2000 ms'));
  await new Promise((resolve) => setImmediate(resolve));
  calls[2]!.settle();
  await dispatcher.idle();
  expect(calls.map((call) => (call.input.event as { add: { input: Array<{ name: string }> } }).add.input[0]!.name)).toEqual(['a', 'b', 'c']);
  expect(seen.slice(2)).toEqual(['delivered District.add', 'failed District.add timeout', 'delivered District.add']);
  expect(warnings[1]).toBe('lambda: webhook District.add failed (timeout): it did not finish within 2000 ms');
});

test('the bytes waiting are bounded too', () => {
  const { host, calls } = heldHost(['District.add']);
  const { seen, listener } = reports();
  const dispatcher = new WebhookDispatcher({ host, listener, concurrency: 1, maxPendingBytes: 300 });
  dispatcher.committed(added('running'));
  dispatcher.committed(added('x'.repeat(100)));
  dispatcher.committed(added('y'.repeat(200)));
  expect(calls).toHaveLength(1);
  expect(dispatcher.pending).toBe(2);
  expect(seen).toEqual(['dropped District.add']);
});

test('an event for a webhook no loaded script has is counted as not registered, and never queued', () => {
  const { host, calls } = heldHost([]);
  const { seen, warnings, listener, logger } = reports();
  new WebhookDispatcher({ host, listener, logger }).committed(added('a'));
  expect(calls).toHaveLength(0);
  expect(seen).toEqual(['failed District.add not-registered']);
  expect(warnings).toEqual(['lambda: webhook District.add failed (not-registered): no lambda script is loaded']);
});

test('the events have Dgraph\'s keys, and commit timestamps that only grow', () => {
  const { host, calls } = heldHost(['T.add', 'T.update', 'T.delete']);
  const dispatcher = new WebhookDispatcher({ host, concurrency: 10 });
  const authHeader = { key: 'X-Token', value: 'jwt' };
  dispatcher.committed({ typeName: 'T', operation: 'add', rootIds: ['1', '2'], input: [{ a: 1 }, { a: 2 }], authHeader, graphql });
  dispatcher.committed({ typeName: 'T', operation: 'update', rootIds: [], setPatch: { a: 3 }, graphql });
  dispatcher.committed({ typeName: 'T', operation: 'delete', rootIds: ['1'], graphql });
  const events = calls.map((call) => call.input.event as { commitTs: number });
  const times = events.map((event) => event.commitTs);
  expect(times[0]! < times[1]! && times[1]! < times[2]!).toBe(true);
  expect(calls.map(({ name, input: { event, authHeader: header } }) => ({ name, event: { ...event, commitTs: 0 }, header }))).toEqual([
    { name: 'T.add', event: { __typename: 'T', operation: 'add', commitTs: 0, add: { rootUIDs: ['1', '2'], input: [{ a: 1 }, { a: 2 }] } }, header: authHeader },
    { name: 'T.update', event: { __typename: 'T', operation: 'update', commitTs: 0, update: { rootUIDs: [], setPatch: { a: 3 }, removePatch: null } }, header: undefined },
    { name: 'T.delete', event: { __typename: 'T', operation: 'delete', commitTs: 0, delete: { rootUIDs: ['1'] } }, header: undefined },
  ]);
});
