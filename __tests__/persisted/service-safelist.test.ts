/**
 * Safelist mode through the real service (createApp with `persistedQueries: { persistedOnly: true }`,
 * what `--persisted-only` sets): only registered operations run, clients cannot register, an admin
 * registers them with `POST /admin/persisted-queries`, and a lambda's own `graphql()` is trusted.
 */
import { sha256Hex } from '../../src/persisted/index.js';
import type { TestServer } from '../helpers/server.js';
import { apq, getGraphQL, manifestOf, postGraphQL, uploadManifest, type HttpResult } from './http-client.js';
import { ADD, COUNT, LIST, startService, storedQueries, TASK_SCHEMA } from './service-fixture.js';

const ADMIN_TOKEN = 'safelist-admin-token';
const MANIFEST = manifestOf([
  { name: 'List', type: 'query', body: LIST },
  { name: 'Add', type: 'mutation', body: ADD },
]);

let service: TestServer;

afterEach(async () => {
  await service.close();
});

function expectNotInList(result: HttpResult, status: number, message: RegExp): void {
  expect(result.status).toBe(status);
  expect(result.body.data).toBeUndefined();
  expect(result.body.errors).toEqual([{ message: expect.stringMatching(message), extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } }]);
}

describe('with an admin token', () => {
  beforeEach(async () => {
    service = await startService({ adminToken: ADMIN_TOKEN, persistedQueries: { persistedOnly: true } });
  });

  test('an unregistered query is refused with a clear error, over POST and GET, and nothing runs', async () => {
    expectNotInList(
      await postGraphQL(service.url, { query: ADD, variables: { title: 'sneaky' } }),
      403,
      new RegExp(`^this operation \\(SHA-256 ${sha256Hex(ADD)}\\) is not in the persisted query list: this server runs only registered operations`),
    );
    expectNotInList(await getGraphQL(service.url, { query: LIST }), 403, /is not in the persisted query list/);
    expectNotInList(await getGraphQL(service.url, { extensions: apq(sha256Hex(LIST)) }), 404, new RegExp(`^persisted query ${sha256Hex(LIST)} is not in the persisted query list`));
    expect(await service.store.collection('Task').find({})).toEqual([]);
  });

  test('clients cannot register: a query with its hash is refused and not stored', async () => {
    const result = await postGraphQL(service.url, { query: LIST, extensions: apq(sha256Hex(LIST)) });
    expectNotInList(result, 403, /clients cannot register new ones/);
    expect((await storedQueries(service.store)).size).toBe(0);
    expectNotInList(await getGraphQL(service.url, { extensions: apq(sha256Hex(LIST)) }), 404, /not in the persisted query list/);
  });

  test('a manifest upload needs the admin token; without it nothing is registered', async () => {
    const missing = await uploadManifest(service.url, MANIFEST);
    expect(missing).toEqual({ status: 401, body: { errors: [{ message: expect.stringMatching(/Authorization: Bearer/), extensions: { code: 'UNAUTHENTICATED' } }] } });
    const wrong = await uploadManifest(service.url, MANIFEST, 'not-the-token');
    expect(wrong.status).toBe(401);
    expect((await storedQueries(service.store)).size).toBe(0);
  });

  test('a manifest upload over HTTP enables its hashes, over GET and POST; everything else stays refused', async () => {
    const upload = await uploadManifest(service.url, MANIFEST, ADMIN_TOKEN);
    expect(upload).toEqual({ status: 200, body: { data: { message: 'persisted query manifest registered', operations: 2, added: 2, alreadyRegistered: 0 } } });

    expect((await postGraphQL(service.url, { variables: { title: 'allowed' }, extensions: apq(sha256Hex(ADD)) })).body).toEqual({ data: { addTask: { numUids: 1 } } });
    expect((await getGraphQL(service.url, { extensions: apq(sha256Hex(LIST)) })).body).toEqual({ data: { queryTask: [{ title: 'allowed', done: false }] } });
    // Registered text runs as well, with or without its hash.
    expect((await postGraphQL(service.url, { query: LIST })).body).toEqual({ data: { queryTask: [{ title: 'allowed', done: false }] } });
    // A registered mutation still cannot run over GET.
    expect((await getGraphQL(service.url, { variables: { title: 'by GET' }, extensions: apq(sha256Hex(ADD)) })).status).toBe(405);
    expectNotInList(await postGraphQL(service.url, { query: COUNT }), 403, /not in the persisted query list/);

    expect(await uploadManifest(service.url, MANIFEST, ADMIN_TOKEN)).toEqual({
      status: 200,
      body: { data: { message: 'persisted query manifest registered', operations: 2, added: 0, alreadyRegistered: 2 } },
    });
  });

  test('a bad manifest is refused with 400 saying what is wrong, and nothing is stored', async () => {
    const wrongId = { format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: sha256Hex(COUNT), name: 'List', type: 'query', body: LIST }] };
    const upload = await uploadManifest(service.url, wrongId, ADMIN_TOKEN);
    expect(upload).toEqual({
      status: 400,
      body: {
        errors: [
          {
            message: `persisted query manifest refused: operations[0] (List): id ${sha256Hex(COUNT)} is not the SHA-256 of body (which is ${sha256Hex(LIST)})`,
            extensions: { code: 'BAD_MANIFEST' },
          },
        ],
      },
    });
    expect((await uploadManifest(service.url, '{"format": ', ADMIN_TOKEN)).status).toBe(400);
    expect((await storedQueries(service.store)).size).toBe(0);
  });

  test('the manifest route answers POST only', async () => {
    const response = await fetch(`${service.url}/admin/persisted-queries`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

test('a lambda\'s own graphql() runs unregistered operations: the operator\'s script is trusted, clients are not', async () => {
  const schema = `${TASK_SCHEMA}
type Query {
  taskTitles: [String] @lambda
}
`;
  const script = `
self.addGraphQLResolvers({
  'Query.taskTitles': async ({ graphql }) => {
    const answer = await graphql('{ queryTask(order: { asc: title }) { title } }');
    if (answer.errors) throw new Error(answer.errors[0].message);
    return answer.data.queryTask.map((task) => task.title);
  },
});
`;
  service = await startService({ initialSchema: schema, initialLambda: script, persistedQueries: { persistedOnly: true } });
  const titles = 'query Titles { taskTitles }';
  const upload = await uploadManifest(service.url, manifestOf([{ name: 'Titles', type: 'query', body: titles }, { name: 'Add', type: 'mutation', body: ADD }]));
  expect(upload.status).toBe(200);
  await postGraphQL(service.url, { variables: { title: 'b' }, extensions: apq(sha256Hex(ADD)) });
  await postGraphQL(service.url, { variables: { title: 'a' }, extensions: apq(sha256Hex(ADD)) });

  expect((await getGraphQL(service.url, { extensions: apq(sha256Hex(titles)) })).body).toEqual({ data: { taskTitles: ['a', 'b'] } });
  // The same inner query sent by a client is refused.
  expectNotInList(await postGraphQL(service.url, { query: '{ queryTask(order: { asc: title }) { title } }' }), 403, /not in the persisted query list/);
});
