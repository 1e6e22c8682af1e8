import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/** The README's "Custom logic" lambda example, exactly as printed, works against the service. */

function readmeExample(): { schema: string; script: string } {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Custom logic'), readme.indexOf('### `@custom(http:)`'));
  const schema = /```graphql\n([\s\S]*?)```/.exec(section)?.[1];
  const script = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!schema || !script) throw new Error('the README has no Custom logic section with a graphql and a js block');
  return { schema, script };
}

let server: TestServer;

beforeAll(async () => {
  const { schema, script } = readmeExample();
  server = await startTestServer();
  await activateSchema(server.url, schema);
  expect(await loadLambda(server.url, script)).toEqual(['Author.greeting', 'Author.reputation', 'Mutation.newAuthor', 'Query.authorsByName']);
});

afterAll(() => server.close());

test('the example\'s mutation, query and type fields answer', async () => {
  const added = await gql(server.url, `mutation { a: newAuthor(name: "Ada") { id name } b: newAuthor(name: "Grace") { name } }`);
  expect(added.body.errors).toBeUndefined();
  expect(added.body.data!.a).toEqual({ id: expect.any(String), name: 'Ada' });

  const { body } = await gql(server.url, `{ authorsByName(names: ["Ada", "Grace"]) { name greeting(prefix: "Hi") reputation } }`);
  expect(body.errors).toBeUndefined();
  expect(body.data!.authorsByName).toEqual(expect.arrayContaining([
    { name: 'Ada', greeting: 'Hi Ada', reputation: 30 },
    { name: 'Grace', greeting: 'Hi Grace', reputation: 50 },
  ]));
  expect(body.data!.authorsByName).toHaveLength(2);
});

test('the README\'s @custom(http:) example, uploaded without CUSTOM_SECRET_SCORES_KEY, is refused naming that variable', async () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### `@custom(http:)`'));
  const schema = /```graphql\n([\s\S]*?)```/.exec(section)![1]!;
  const upload = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: schema });
  expect(upload.status).toBe(400);
  const body = (await upload.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
  expect(body.errors.map((error) => [error.message, error.extensions.code])).toEqual([
    [
      'Author.score @custom(http:): the secret header X-Api-Key:SCORES_KEY needs a configured secret named SCORES_KEY: set the environment variable CUSTOM_SECRET_SCORES_KEY for the service',
      'BAD_SCHEMA',
    ],
  ]);
  expect(readme).toContain(body.errors[0]!.message);
});
