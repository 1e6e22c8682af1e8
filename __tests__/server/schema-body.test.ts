/**
 * Schema uploads whose body was mangled on the way are refused before they are read (the issue "In the
 * browser and on the command line", #35): `curl -d @schema.graphql` strips line breaks, so a first-line
 * comment hid the whole schema and the upload removed every type; a JSON body is not the schema text.
 */
import { refuseMangledSchemaBody } from '../../src/server/routes/schema-body';
import { HttpError } from '../../src/server/http-io';
import { activateSchema } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

const FORM = 'application/x-www-form-urlencoded';
const SCHEMA = '# Tasks of the team\ntype Task {\n  id: ID!\n  title: String! # shown in lists\n}\n';
/** What `curl -d @schema.graphql` sends of it: every CR and LF removed. */
const STRIPPED = SCHEMA.replace(/[\r\n]/g, '');

function refusal(contentType: string | undefined, text: string): string | undefined {
  try {
    refuseMangledSchemaBody(contentType, text);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return `${(error as HttpError).status} ${(error as HttpError).message}`;
  }
}

describe('refuseMangledSchemaBody', () => {
  it.each<[string, string | undefined, string, RegExp | undefined]>([
    ['curl --data-binary: form-encoded, line breaks kept', FORM, SCHEMA, undefined],
    ['curl -d of a schema without comments', FORM, 'type Task { id: ID! title: String }', undefined],
    ['a # inside a string is no comment', FORM, 'type Task { id: ID! """see # 4""" title: String }', undefined],
    ['text/plain without line breaks is taken as sent', 'text/plain', STRIPPED, undefined],
    ['no content type', undefined, STRIPPED, undefined],
    ['text that does not even lex is left to the upload’s validation', FORM, 'type Task { id: ID! ? } # x', undefined],
    ['curl -d with a first-line comment', FORM, STRIPPED, /^415 the schema arrived form-encoded and without line breaks, so its comment at column 1 runs to the end/],
    ['curl -d with a comment after a field', `${FORM}; charset=utf-8`, 'type Task { id: ID! # key title: String }', /^415 .* comment at column 21 .*--data-binary @schema\.graphql$/],
    ['JSON', 'application/json', JSON.stringify({ schema: SCHEMA }), /^415 the schema upload takes the schema text itself as the body, not JSON/],
    ['JSON with a charset', 'Application/JSON; charset=utf-8', JSON.stringify({ schema: SCHEMA }), /^415 /],
  ])('%s', (_name, contentType, text, expected) => {
    const answer = refusal(contentType, text);
    if (expected === undefined) expect(answer).toBeUndefined();
    else expect(answer).toMatch(expected);
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await activateSchema(server.url, SCHEMA);
  });
  afterAll(async () => {
    await server?.close();
  });

  const upload = async (target: string, contentType: string, body: string) => {
    const response = await fetch(`${server.url}${target}`, { method: 'POST', headers: { 'content-type': contentType }, body });
    return { status: response.status, body: (await response.json()) as { errors?: Array<{ message: string; extensions: { code: string } }> } };
  };

  it('refuses what curl -d sends, for an upload and for a dry run, and the schema keeps serving', async () => {
    for (const target of ['/admin/schema', '/admin/schema?dryRun=true']) {
      const answer = await upload(target, FORM, STRIPPED);
      expect([target, answer.status, answer.body.errors?.[0]?.extensions.code]).toEqual([target, 415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect(answer.body.errors?.[0]?.message).toContain('send the file with curl --data-binary @schema.graphql');
    }
    expect([...server.app.active!.model.types.keys()]).toEqual(['Task']);
  });

  it('refuses a JSON body, and takes what curl --data-binary sends', async () => {
    expect((await upload('/admin/schema', 'application/json', JSON.stringify({ schema: SCHEMA }))).status).toBe(415);
    expect((await upload('/admin/schema', FORM, SCHEMA)).status).toBe(200);
  });
});
