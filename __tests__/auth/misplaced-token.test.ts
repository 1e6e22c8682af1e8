/**
 * A token sent in another header than the schema's (the issue "In the browser and on the command line", #35):
 * the request is answered as anonymous, as before, but the answer says why in `extensions`, and the service
 * logs it at warn once per header name and minute.
 */
import type { Logger } from 'pino';
import { misplacedTokenHeader } from '../../src/auth/misplaced-token';
import type { AuthorizationConfig } from '../../src/sdl/model';
import { misplacedTokenLogger } from '../../src/server/misplaced-token-log';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { AUDIENCE, authorizationLine, NAMESPACE, rsa, tokenFor } from './keys';

const CONFIG = { verificationKey: rsa.publicKey, header: 'X-Auth-Token', namespace: NAMESPACE, algo: 'RS256', audience: [AUDIENCE], closedByDefault: false } as AuthorizationConfig;
const TOKEN = tokenFor({ USER: 'ada' });

describe('misplacedTokenHeader', () => {
  it.each<[string, Record<string, string>, string | undefined]>([
    ['the token in Authorization', { authorization: `Bearer ${TOKEN}` }, 'authorization'],
    ['the token without Bearer in another header', { 'x-token': TOKEN }, 'x-token'],
    ['the configured header present (any case), another one too', { 'X-AUTH-TOKEN': TOKEN, authorization: `Bearer ${TOKEN}` }, undefined],
    ['the configured header present but empty', { 'x-auth-token': '', authorization: `Bearer ${TOKEN}` }, undefined],
    ['no token anywhere', { authorization: 'Basic YWRhOnB3', cookie: 'a=b' }, undefined],
    ['something that is not a JWS', { authorization: 'Bearer abc.def.ghi' }, undefined],
  ])('%s', (_name, headers, expected) => {
    expect(misplacedTokenHeader(CONFIG, headers)).toBe(expected);
  });

  it('looks at no more than 64 headers', () => {
    const headers: Record<string, string> = {};
    for (let index = 0; index < 64; index += 1) headers[`x-filler-${index}`] = 'x';
    headers.authorization = `Bearer ${TOKEN}`;
    expect(misplacedTokenHeader(CONFIG, headers)).toBeUndefined();
  });
});

describe('misplacedTokenLogger', () => {
  it('warns once per header name and minute, and forgets names a minute old when it holds 256', () => {
    const lines: unknown[] = [];
    const logger = { warn: (fields: unknown, message: string) => lines.push([fields, message]) } as unknown as Logger;
    let now = 0;
    const note = misplacedTokenLogger(logger, () => now);
    note('authorization', 'X-Auth-Token');
    note('authorization', 'X-Auth-Token');
    note('x-token', 'X-Auth-Token');
    expect(lines).toEqual([
      [{ header: 'authorization', configured: 'X-Auth-Token' }, 'a request carries a token in the header authorization, but the schema reads tokens from X-Auth-Token: it was answered as anonymous'],
      [{ header: 'x-token', configured: 'X-Auth-Token' }, expect.any(String)],
    ]);
    now = 59_999;
    note('authorization', 'X-Auth-Token');
    expect(lines).toHaveLength(2);
    now = 60_000;
    note('authorization', 'X-Auth-Token');
    expect(lines).toHaveLength(3);
    // 254 new names fill the 256; then x-token (a minute old) is forgotten for one more, and the rest are dropped.
    for (let index = 0; index < 300; index += 1) note(`x-${index}`, 'X-Auth-Token');
    expect(lines).toHaveLength(3 + 255);
    now = 200_000;
    note('x-299', 'X-Auth-Token');
    expect(lines).toHaveLength(3 + 256);
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await activateSchema(server.url, `type Note @auth(query: { rule: """query($USER: String!) { queryNote(filter: { owner: { eq: $USER } }) { __typename } }""" }) {
  id: ID!
  owner: String! @search(by: [hash])
}
${authorizationLine({ header: 'X-Auth-Token' })}
`);
    await gql(server.url, 'mutation { addNote(input: [{ owner: "ada" }]) { numUids } }', undefined, { 'x-auth-token': TOKEN });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a token in Authorization as anonymous, with a hint naming both headers', async () => {
    const answer = await gql(server.url, '{ queryNote { owner } }', undefined, { authorization: `Bearer ${TOKEN}` });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: { queryNote: [] },
      extensions: {
        authorization: {
          hint: "the request carries a token in the header authorization, but this schema's # Autograph.Authorization line reads tokens from X-Auth-Token: the request was answered as anonymous",
        },
      },
    });
  });

  it('gives no hint when the token is in the configured header, or there is none', async () => {
    expect((await gql(server.url, '{ queryNote { owner } }', undefined, { 'x-auth-token': TOKEN })).body).toEqual({ data: { queryNote: [{ owner: 'ada' }] } });
    expect((await gql(server.url, '{ queryNote { owner } }')).body).toEqual({ data: { queryNote: [] } });
  });
});
