import { rm } from 'node:fs/promises';
import { activateSchema, gql, uploadSchema } from '../helpers/gql';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { loadLambda, uploadLambda } from './lambda-upload';

/** Issue 7: `/admin/lambda` uploads, their errors, the schema/script cross-check, protection and restarts. */

const SCHEMA = `
type Note {
  id: ID!
  text: String!
  shout: String @lambda
}
`;

const SCHEMA_WITH_LENGTH = `
type Note {
  id: ID!
  text: String!
  shout: String @lambda
  length: Int @lambda
}
`;

const SHOUT = `self.addGraphQLResolvers({ 'Note.shout': ({ parent }) => parent.text.toUpperCase() + '!' });`;
const SHOUT_AND_LENGTH = `self.addGraphQLResolvers({
  'Note.shout': ({ parent }) => parent.text.toUpperCase() + '!!',
  'Note.length': ({ parent }) => parent.text.length,
});`;

describe('uploads on one server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(() => server.close());

  test('a script that does not parse is refused with the place of the error, like a schema', async () => {
    const { status, body } = await uploadLambda(server.url, `self.addGraphQLResolvers({\n  'Note.shout': () => {\n});`);
    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]!.message).toMatch(/SyntaxError|Unexpected/);
    expect(body.errors![0]!.locations).toEqual([{ line: expect.any(Number), column: expect.any(Number) }]);
    expect(body.errors![0]!.extensions).toEqual({ code: 'BAD_LAMBDA_SCRIPT' });
  });

  test('an empty script is refused', async () => {
    const { status, body } = await uploadLambda(server.url, '  \n');
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ message: 'the lambda script is empty: send the JavaScript text as the request body', extensions: { code: 'BAD_LAMBDA_SCRIPT' } }]);
  });

  test('a @lambda field without a script fails at query time with what to do', async () => {
    await activateSchema(server.url, SCHEMA);
    await gql(server.url, `mutation { addNote(input: [{ text: "hello" }]) { numUids } }`);
    const { body } = await gql(server.url, `{ queryNote { text shout } }`);
    expect(body.data).toEqual({ queryNote: [{ text: 'hello', shout: null }] });
    expect(body.errors![0]!.message).toBe(
      'Lambda field Note.shout: no lambda script is loaded: start the service with --lambda FILE or POST the script to /admin/lambda',
    );
  });

  test('a script uploaded after the schema must serve its @lambda fields', async () => {
    const missing = await uploadLambda(server.url, `self.addGraphQLResolvers({ 'Note.other': () => 1 });`);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      { message: 'Note.shout has @lambda, but the lambda script registers no resolver for it (expected "Note.shout") (schema line 5, column 3)', extensions: { code: 'BAD_LAMBDA_SCRIPT' } },
    ]);

    expect(await loadLambda(server.url, SHOUT)).toEqual(['Note.shout']);
    const { body } = await gql(server.url, `{ queryNote { shout } }`);
    expect(body).toEqual({ data: { queryNote: [{ shout: 'HELLO!' }] } });
  });

  test('a schema uploaded after the script must find its @lambda fields in it; the old schema keeps serving', async () => {
    const refused = await uploadSchema(server.url, SCHEMA_WITH_LENGTH);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      {
        message: 'Note.length has @lambda, but the lambda script registers no resolver for it (expected "Note.length")',
        locations: [{ line: 6, column: 3 }],
        extensions: { code: 'BAD_SCHEMA' },
      },
    ]);
    expect((await gql(server.url, `{ queryNote { shout } }`)).body).toEqual({ data: { queryNote: [{ shout: 'HELLO!' }] } });
  });

  test('a refused script leaves the running one serving; a good one replaces it', async () => {
    const refused = await uploadLambda(server.url, `throw new Error('not today');`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0]!.message).toMatch(/not today/);
    expect((await gql(server.url, `{ queryNote { shout } }`)).body).toEqual({ data: { queryNote: [{ shout: 'HELLO!' }] } });

    expect(await loadLambda(server.url, SHOUT_AND_LENGTH)).toEqual(['Note.length', 'Note.shout']);
    await activateSchema(server.url, SCHEMA_WITH_LENGTH);
    expect((await gql(server.url, `{ queryNote { shout length } }`)).body).toEqual({ data: { queryNote: [{ shout: 'HELLO!!', length: 5 }] } });
  });

  test('GET /admin/lambda answers the running script', async () => {
    const response = await fetch(`${server.url}/admin/lambda`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await response.text()).toBe(SHOUT_AND_LENGTH);
  });
});

test('/admin/lambda is protected like /admin/schema', async () => {
  const server = await startTestServer({ adminToken: 'let-me-in' });
  try {
    const anonymous = await uploadLambda(server.url, SHOUT);
    expect(anonymous.status).toBe(401);
    const wrong = await uploadLambda(server.url, SHOUT, 'guess');
    expect(wrong.status).toBe(401);
    expect((await fetch(`${server.url}/admin/lambda`)).status).toBe(401);
    expect(await loadLambda(server.url, SHOUT, 'let-me-in')).toEqual(['Note.shout']);
  } finally {
    await server.close();
  }
});

test('the uploaded script is stored: a restart on the same data serves it again', async () => {
  const dataDir = await makeTempDir();
  try {
    const first = await startTestServer({ dataDir });
    await activateSchema(first.url, SCHEMA);
    await loadLambda(first.url, SHOUT);
    await gql(first.url, `mutation { addNote(input: [{ text: "persisted" }]) { numUids } }`);
    await first.close();

    const second = await startTestServer({ dataDir });
    try {
      expect((await gql(second.url, `{ queryNote { shout } }`)).body).toEqual({ data: { queryNote: [{ shout: 'PERSISTED!' }] } });
    } finally {
      await second.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('a script given at start replaces the stored one and is checked against the stored schema', async () => {
  const dataDir = await makeTempDir();
  try {
    const first = await startTestServer({ dataDir });
    await activateSchema(first.url, SCHEMA);
    await loadLambda(first.url, SHOUT);
    await first.close();

    await expect(startTestServer({ dataDir, initialLambda: `self.addGraphQLResolvers({ 'Note.other': () => 1 });` }))
      .rejects.toThrow(/the lambda script given at start is not valid:\nNote\.shout has @lambda/);

    const restarted = await startTestServer({ dataDir, initialLambda: SHOUT_AND_LENGTH });
    try {
      await gql(restarted.url, `mutation { addNote(input: [{ text: "again" }]) { numUids } }`);
      expect((await gql(restarted.url, `{ queryNote { shout } }`)).body).toEqual({ data: { queryNote: [{ shout: 'AGAIN!!' }] } });
    } finally {
      await restarted.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
