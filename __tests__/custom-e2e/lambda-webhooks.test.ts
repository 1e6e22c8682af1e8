import { authorizationLine, tokenFor } from '../auth/keys';
import { activateSchema, gql, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda, uploadLambda } from './lambda-upload';

/**
 * Issue 32: `@lambdaOnMutate` and `self.addWebHookResolvers`. After a mutation commits, the script's
 * `Type.add|update|delete` webhook gets Dgraph's event (graphql/resolve/webhook.go, and the expected
 * changelog of graphql/e2e/common/lambda.go `lambdaOnMutateHooks`). The recording webhook writes each event
 * it gets as an AuditEvent through its own graphql(), which the test reads back.
 */

const HEADER = 'X-Auth-Token';

const SCHEMA = `
type District @lambdaOnMutate(add: true, update: true, delete: true) {
  dgId: ID!
  id: String! @id
  name: String!
}

type Region @lambdaOnMutate(delete: true) {
  id: ID!
  name: String!
}

type Plain {
  id: ID!
  name: String!
}

type Failing @lambdaOnMutate(add: true) {
  id: ID!
  name: String!
}

type Spinning @lambdaOnMutate(add: true) {
  id: ID!
  name: String!
}

interface Shape @lambdaOnMutate(add: true, update: true) {
  id: ID!
  label: String!
}

type Square implements Shape {
  side: Int
}

type Account @secret(field: "pwd") @lambdaOnMutate(add: true) {
  id: ID!
  login: String! @id
}

type AuditEvent {
  id: ID!
  text: String!
}

${authorizationLine({ header: HEADER })}
`;

const SCRIPT = `
async function record({ type, event, authHeader, graphql }) {
  const answer = await graphql('mutation($text: String!) { addAuditEvent(input: [{ text: $text }]) { numUids } }', {
    text: JSON.stringify({ type, event, authHeader }),
  });
  if (answer.errors) throw new Error('recording failed: ' + JSON.stringify(answer.errors));
}

self.addWebHookResolvers({
  'District.add': record,
  'District.update': record,
  'District.delete': record,
  // Registered, but never called: Region has only delete, Plain has no @lambdaOnMutate.
  'Region.add': record,
  'Region.update': record,
  'Region.delete': record,
  'Plain.add': record,
  'Account.add': record,
  'Shape.update': record,
  'Square.add': record,
  'Failing.add': () => { throw new Error('the webhook broke'); },
  'Spinning.add': () => { for (;;) {} },
});
`;

const token = tokenFor({ USER: 'alice' });
const asAlice = { [HEADER]: token };

interface Recorded {
  type: string;
  event: { __typename: string; operation: string; commitTs: number; [kind: string]: unknown };
  authHeader?: { key: string; value: string };
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ lambdaTimeoutMs: 500 });
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, SCRIPT);
});

afterAll(() => server.close());

async function mutate(query: string, variables?: Record<string, unknown>): Promise<Record<string, any>> {
  const { body } = await gql(server.url, query, variables, asAlice);
  expect(body.errors).toBeUndefined();
  return body.data!;
}

/** The recorded events in commit order. */
async function recorded(): Promise<Recorded[]> {
  const data = await gqlData<{ queryAuditEvent: Array<{ text: string }> }>(server.url, '{ queryAuditEvent { text } }');
  return data.queryAuditEvent.map((audit) => JSON.parse(audit.text) as Recorded).sort((a, b) => a.event.commitTs - b.event.commitTs);
}

/** Waits until `count` events are recorded (they arrive after the mutations' answers). */
async function recordedEvents(count: number): Promise<Recorded[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const events = await recorded();
    if (events.length >= count || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function webhookCount(webhook: string, outcome: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`autograph_lambda_webhooks_total{webhook="${webhook}",outcome="${outcome}"} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition did not become true within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const ADD_DISTRICT = `mutation($input: [AddDistrictInput!]!, $upsert: Boolean) {
  addDistrict(input: $input, upsert: $upsert) { district { dgId id } }
}`;

test('the lambda admin answer lists the webhooks beside the resolvers', async () => {
  const { status, body } = await uploadLambda(server.url, SCRIPT);
  expect(status).toBe(200);
  expect(body.data).toEqual({
    message: 'lambda script loaded',
    resolvers: [],
    webhooks: ['Account.add', 'District.add', 'District.delete', 'District.update', 'Failing.add', 'Plain.add', 'Region.add', 'Region.delete', 'Region.update', 'Shape.update', 'Spinning.add', 'Square.add'],
  });
});

test('add, upsert, update and delete each send Dgraph\'s event after commit; rolled-back mutations and types without the switch send nothing', async () => {
  const added = await mutate(ADD_DISTRICT, { input: [{ id: 'D1', name: 'Dist-1' }, { id: 'D2', name: 'Dist-2' }], upsert: false });
  const ids = Object.fromEntries(added.addDistrict.district.map((district: { id: string; dgId: string }) => [district.id, district.dgId]));
  await mutate(ADD_DISTRICT, { input: [{ id: 'D1', name: 'Dist_1' }], upsert: true });
  await mutate(`mutation { updateDistrict(input: { filter: { id: { eq: "D2" } }, set: { name: "Dist_2" }, remove: { name: "Dist-2" } }) { numUids } }`);

  // Rolled back: the second input repeats the @id of the first, so nothing is written and nothing is sent.
  const refused = await gql(server.url, ADD_DISTRICT, { input: [{ id: 'D3', name: 'Dist-3' }, { id: 'D3', name: 'again' }], upsert: false }, asAlice);
  expect(refused.body.errors?.length).toBe(1);
  // No switch for these: Region sends only deletes, Plain has no @lambdaOnMutate.
  const region = await mutate('mutation { addRegion(input: [{ name: "North" }]) { region { id } } }');
  await mutate('mutation { updateRegion(input: { filter: {}, set: { name: "Nord" } }) { numUids } }');
  await mutate('mutation { addPlain(input: [{ name: "p" }]) { numUids } }');

  await mutate('mutation { deleteDistrict(filter: { id: { in: ["D1", "D2"] } }) { numUids } }');
  await mutate('mutation { deleteRegion(filter: {}) { numUids } }');

  const events = await recordedEvents(5);
  const commitTimes = events.map(({ event }) => event.commitTs);
  expect(commitTimes.every((ts) => Number.isSafeInteger(ts) && ts > 0)).toBe(true);
  expect([...commitTimes].sort((a, b) => a - b)).toEqual(commitTimes);
  expect(new Set(commitTimes).size).toBe(commitTimes.length);
  const authHeader = { key: HEADER, value: token };
  expect(events.map(({ type, event: { commitTs: _commitTs, ...event }, authHeader: header }) => ({ type, event, authHeader: header }))).toEqual([
    {
      type: 'District.add',
      event: { __typename: 'District', operation: 'add', add: { rootUIDs: [ids.D1, ids.D2], input: [{ id: 'D1', name: 'Dist-1' }, { id: 'D2', name: 'Dist-2' }] } },
      authHeader,
    },
    {
      type: 'District.add',
      event: { __typename: 'District', operation: 'add', add: { rootUIDs: [ids.D1], input: [{ id: 'D1', name: 'Dist_1' }] } },
      authHeader,
    },
    {
      type: 'District.update',
      event: { __typename: 'District', operation: 'update', update: { rootUIDs: [ids.D2], setPatch: { name: 'Dist_2' }, removePatch: { name: 'Dist-2' } } },
      authHeader,
    },
    {
      type: 'District.delete',
      event: { __typename: 'District', operation: 'delete', delete: { rootUIDs: expect.arrayContaining([ids.D1, ids.D2]) } },
      authHeader,
    },
    {
      type: 'Region.delete',
      event: { __typename: 'Region', operation: 'delete', delete: { rootUIDs: [region.addRegion.region[0].id] } },
      authHeader,
    },
  ]);
  expect((events[3]!.event.delete as { rootUIDs: string[] }).rootUIDs).toHaveLength(2);
  expect(await recorded()).toHaveLength(5);
  expect(await webhookCount('District.add', 'delivered')).toBe(2);
  expect(await webhookCount('Plain.add', 'delivered')).toBe(0);
  expect(await webhookCount('Region.add', 'delivered')).toBe(0);
});

test('a webhook that throws or runs past the time limit does not fail or delay the mutation, and is counted on /metrics', async () => {
  const started = Date.now();
  const failing = await mutate('mutation { addFailing(input: [{ name: "f" }]) { failing { name } } }');
  const spinning = await mutate('mutation { addSpinning(input: [{ name: "s" }]) { spinning { name } } }');
  // The spinning webhook holds the lambda for its 500 ms limit; the mutation answered long before.
  expect(Date.now() - started).toBeLessThan(450);
  expect(failing).toEqual({ addFailing: { failing: [{ name: 'f' }] } });
  expect(spinning).toEqual({ addSpinning: { spinning: [{ name: 's' }] } });
  await eventually(async () => (await webhookCount('Failing.add', 'failed_thrown')) === 1 && (await webhookCount('Spinning.add', 'failed_timeout')) === 1);
  // The data was written all the same.
  expect(await gqlData(server.url, '{ queryFailing { name } querySpinning { name } }')).toEqual({ queryFailing: [{ name: 'f' }], querySpinning: [{ name: 's' }] });
});

test('on an interface, its update mutation sends the interface\'s event; its implementations send none of their own', async () => {
  const before = (await recorded()).length;
  const square = await mutate('mutation { addSquare(input: [{ label: "sq", side: 2 }]) { square { id } } }');
  await mutate('mutation { updateShape(input: { filter: {}, set: { label: "box" } }) { numUids } }');
  await eventually(async () => (await webhookCount('Shape.update', 'delivered')) === 1);
  const events = await recorded();
  expect(events.length).toBe(before + 1);
  expect(events.filter(({ type }) => type.startsWith('S')).map(({ type, event: { commitTs: _ts, ...event } }) => ({ type, event }))).toEqual([
    { type: 'Shape.update', event: { __typename: 'Shape', operation: 'update', update: { rootUIDs: [square.addSquare.square[0].id], setPatch: { label: 'box' }, removePatch: null } } },
  ]);
  expect(await webhookCount('Square.add', 'delivered')).toBe(0);
});

test('a script that lacks a webhook the schema switches on is refused, and the loaded one keeps serving', async () => {
  const { status, body } = await uploadLambda(server.url, SCRIPT.replace("'District.delete': record,", ''));
  expect(status).toBe(400);
  expect(body.errors).toEqual([{
    message: 'Type District has @lambdaOnMutate(delete: true), but the lambda script registers no webhook "District.delete" (self.addWebHookResolvers) (schema line 2, column 6)',
    extensions: { code: 'BAD_LAMBDA_SCRIPT' },
  }]);
  const schema = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: SCHEMA.replace('type Plain {', 'type Plain @lambdaOnMutate(update: true) {') });
  expect(schema.status).toBe(400);
  expect(JSON.stringify(await schema.json())).toContain('Type Plain has @lambdaOnMutate(update: true), but the lambda script registers no webhook \\"Plain.update\\"');
});

test('a webhook name other than Type.add, Type.update or Type.delete is refused when the script loads', async () => {
  const { status, body } = await uploadLambda(server.url, "self.addWebHookResolvers({ 'District.added': () => null });");
  expect(status).toBe(400);
  expect(body.errors?.[0]?.message).toBe(
    'the lambda script failed while loading: self.addWebHookResolvers: "District.added" is not a webhook name of the form "Type.add", "Type.update" or "Type.delete" (line 1, column 6)',
  );
});

test('a @secret value reaches the webhook as its stored hash, never in clear', async () => {
  const before = (await recorded()).length;
  await mutate('mutation { addAccount(input: [{ login: "ada", pwd: "s3cret-pass" }]) { numUids } }');
  const events = await recordedEvents(before + 1);
  const account = events.find(({ type }) => type === 'Account.add')!;
  const [input] = (account.event.add as { input: Array<{ login: string; pwd: string }> }).input;
  expect(input!.login).toBe('ada');
  expect(input!.pwd).toMatch(/^\$2[aby]\$/);
  expect(JSON.stringify(account)).not.toContain('s3cret-pass');
});
