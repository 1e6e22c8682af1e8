/**
 * The README's safelist walkthrough, as written: its manifest uploaded to a service in safelist mode, then
 * its client operation sent by Apollo Client 4 through the persisted query link. The manifest must hold
 * the hash Apollo Client sends, so the operation runs as one GET by hash.
 */
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { activateSchema } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASKS_SCHEMA } from '../server/schemas';

function safelistWalkthrough(): { operation: string; manifest: string; answer: unknown } {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const start = readme.indexOf('### Safelist mode');
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  const operation = /const OPEN_TASKS = gql`([^`]+)`;/.exec(section)?.[1];
  const manifest = /cat > manifest\.json <<'JSON'\n([\s\S]*?)\nJSON\n/.exec(section)?.[1];
  const answer = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (operation === undefined || manifest === undefined || answer === undefined) {
    throw new Error('README safelist walkthrough: the client operation, the manifest heredoc or the answer is missing');
  }
  return { operation, manifest, answer: JSON.parse(answer) as unknown };
}

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

test('the manifest registers the hash Apollo Client sends: the operation runs as one GET by hash', async () => {
  const { operation, manifest, answer } = safelistWalkthrough();
  server = await startTestServer({ persistedQueries: { persistedOnly: true } });
  await activateSchema(server.url, TASKS_SCHEMA);
  const upload = await fetch(`${server.url}/admin/persisted-queries`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: manifest });
  expect(upload.status).toBe(200);
  expect(await upload.json()).toEqual(answer);

  const sent: Array<{ method: string; status: number }> = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    sent.push({ method: init?.method ?? 'GET', status: response.status });
    return response;
  };
  const client = new ApolloClient({
    cache: new InMemoryCache(),
    link: createPersistedQueryLink({ sha256: (text) => createHash('sha256').update(text).digest('hex'), useGETForHashedQueries: true }).concat(
      new HttpLink({ uri: `${server.url}/graphql`, fetch: recordingFetch }),
    ),
  });
  const result = await client.query({ query: gql(operation), fetchPolicy: 'network-only' });
  expect(result.data).toEqual({ queryTask: [] });
  expect(sent).toEqual([{ method: 'GET', status: 200 }]);
});

test('the original text as written would not match: its hash is not registered (404 in safelist mode)', async () => {
  const { operation, manifest } = safelistWalkthrough();
  server = await startTestServer({ persistedQueries: { persistedOnly: true } });
  await activateSchema(server.url, TASKS_SCHEMA);
  await fetch(`${server.url}/admin/persisted-queries`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: manifest });
  const hash = createHash('sha256').update(operation).digest('hex');
  const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });
  const response = await fetch(`${server.url}/graphql?${new URLSearchParams({ extensions })}`, { headers: { 'content-type': 'application/json' } });
  expect(response.status).toBe(404);
  expect(((await response.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
});
