/**
 * Who the caller is, decided once per request: the auth plugin's `requestDidStart` (called directly with a
 * request context as Apollo Server builds it), `authOf` for contexts made without the plugin, and
 * `authenticateRequest` for key-set (JWKUrl) configurations.
 */
import type { GraphQLRequestContext } from '@apollo/server';
import { GraphQLSchema } from 'graphql';
import jwt from 'jsonwebtoken';
import {
  ANONYMOUS, authenticateRequest, AuthenticationError, authOf, createAuthPlugin, KeySets, KeySetUnavailableError,
  type AuthContext, type AuthResult, verifyRequestToken,
} from '../../src/auth/index.js';
import type { FetchedKeySet } from '../../src/auth/keys/fetch-key-set.js';
import { DEFAULT_KEY_SET_POLICY } from '../../src/auth/keys/remote-key-set.js';
import type { AuthorizationConfig, KeySetAuthorization, SchemaModel } from '../../src/sdl/model.js';
import { AUDIENCE, NAMESPACE, rsa, tokenFor } from './keys.js';
import { signingPair, signWith, type SigningPair } from './sign.js';

const staticKey: AuthorizationConfig = {
  verificationKey: rsa.publicKey, header: 'X-Auth-Token', namespace: NAMESPACE, algo: 'RS256', audience: [AUDIENCE], closedByDefault: false,
};
const JWKS_URL = 'https://issuer.example/jwks.json';
const keySetConfig: KeySetAuthorization = { jwkUrls: [JWKS_URL], header: 'X-Auth-Token', namespace: NAMESPACE, audience: [AUDIENCE], closedByDefault: false };

const es = signingPair('ES256');
const claimsOf = (user: string) => ({ aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600, [NAMESPACE]: { USER: user } });

/** KeySets over a fake key server publishing `published`, counting fetches; `failure` makes every fetch throw it. */
function keySetsPublishing(published: SigningPair[], failure?: Error) {
  const fetched: string[] = [];
  const keySets = new KeySets({ ...DEFAULT_KEY_SET_POLICY, refreshCooldownMs: 0 }, async (url): Promise<FetchedKeySet> => {
    fetched.push(url);
    if (failure) throw failure;
    return { keys: new Map(published.map((pair) => [pair.kid, { key: pair.publicKey, algorithm: pair.algorithm }])), declaredLifetimeSeconds: 300 };
  });
  return { keySets, fetched };
}

const modelWith = (authorization: AuthorizationConfig | undefined) => ({ authorization }) as unknown as SchemaModel;
const schemaOf = (model: SchemaModel | undefined) => new GraphQLSchema({ extensions: model ? { autograph: { model } } : {} });

/** What `requestDidStart` does for one request: the context afterwards and the hooks it returned. */
async function startRequest(options: { schema?: GraphQLSchema; headers?: Record<string, string>; context?: AuthContext; keySets?: KeySets }) {
  const plugin = createAuthPlugin(options.keySets ?? keySetsPublishing([es]).keySets);
  const context: AuthContext = options.context ?? {};
  const requestContext = {
    contextValue: context,
    schema: options.schema,
    request: { http: options.headers ? { headers: new Map(Object.entries(options.headers)) } : undefined },
  } as unknown as GraphQLRequestContext<AuthContext>;
  const hooks = await plugin.requestDidStart!(requestContext as never);
  return { context, hooks };
}

/** The error the hooks returned for a refused request throw when the operation is resolved. */
async function refusalOf(hooks: unknown): Promise<unknown> {
  const didResolveOperation = (hooks as { didResolveOperation?: () => Promise<void> } | undefined)?.didResolveOperation;
  if (!didResolveOperation) throw new Error('the request was not refused');
  return didResolveOperation().then(() => 'resolved without an error', (error: unknown) => error);
}

describe('createAuthPlugin: the caller on the context as the request starts', () => {
  const alice = () => ({ 'x-auth-token': `Bearer ${tokenFor({ USER: 'alice' })}` });

  test('a valid token: the caller\'s claims, and no hooks for later stages', async () => {
    const { context, hooks } = await startRequest({ schema: schemaOf(modelWith(staticKey)), headers: alice() });
    expect(hooks).toBeUndefined();
    expect(context.auth).toMatchObject({ authenticated: true, variables: { USER: 'alice' } });
  });

  test.each<[string, () => Parameters<typeof startRequest>[0]]>([
    ['no schema', () => ({ headers: alice() })],
    ['a schema not built from a model', () => ({ schema: schemaOf(undefined), headers: alice() })],
    ['a model without an Authorization line', () => ({ schema: schemaOf(modelWith(undefined)), headers: alice() })],
    ['a request without HTTP headers', () => ({ schema: schemaOf(modelWith(staticKey)) })],
  ])('%s: anonymous', async (_case, request) => {
    const { context, hooks } = await startRequest(request());
    expect(hooks).toBeUndefined();
    expect(context.auth).toBe(ANONYMOUS);
  });

  test('a context that already holds a caller (the plugin registered twice) is left as it is', async () => {
    const earlier: AuthResult = { authenticated: true, variables: { USER: 'bob' } };
    const { context, hooks } = await startRequest({ schema: schemaOf(modelWith(staticKey)), headers: { 'x-auth-token': 'garbage' }, context: { auth: earlier } });
    expect(hooks).toBeUndefined();
    expect(context.auth).toBe(earlier);
  });

  test('an invalid token: the request is refused when its operation is resolved, with the 401 error', async () => {
    const { context, hooks } = await startRequest({ schema: schemaOf(modelWith(staticKey)), headers: { 'x-auth-token': 'not.a.token' } });
    expect(context.auth).toBeUndefined();
    const error = await refusalOf(hooks);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toBe('invalid token in header X-Auth-Token: jwt malformed');
    expect((error as AuthenticationError).extensions).toEqual({ code: 'UNAUTHENTICATED', http: { status: 401 } });
  });

  test('a token whose nbf lies beyond JavaScript dates: refused with 401 (not a server error)', async () => {
    const token = jwt.sign({ [NAMESPACE]: { USER: 'alice' }, nbf: 1e300 }, rsa.privateKey, { algorithm: 'RS256', audience: AUDIENCE });
    const { hooks } = await startRequest({ schema: schemaOf(modelWith(staticKey)), headers: { 'x-auth-token': token } });
    const error = await refusalOf(hooks);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toBe('invalid token in header X-Auth-Token: the token is not valid before 1e+300 (seconds since 1970)');
  });

  test('a key set that cannot be fetched: refused with the 503 error', async () => {
    const { keySets } = keySetsPublishing([], new Error('connect ECONNREFUSED'));
    const { hooks } = await startRequest({ schema: schemaOf(modelWith(keySetConfig)), headers: { 'x-auth-token': signWith(es, claimsOf('alice')) }, keySets });
    const error = await refusalOf(hooks);
    expect(error).toBeInstanceOf(KeySetUnavailableError);
    expect((error as KeySetUnavailableError).message).toBe(`cannot verify the token: the key set ${JWKS_URL} cannot be fetched (connect ECONNREFUSED)`);
    expect((error as KeySetUnavailableError).extensions).toEqual({ code: 'KEY_SET_UNAVAILABLE', http: { status: 503 } });
  });

  test('any other failure is not turned into a refusal: it propagates', async () => {
    const broken = { keyFor: async () => { throw new TypeError('broken key store'); } } as unknown as KeySets;
    await expect(startRequest({ schema: schemaOf(modelWith(keySetConfig)), headers: { 'x-auth-token': signWith(es, claimsOf('alice')) }, keySets: broken }))
      .rejects.toThrow(new TypeError('broken key store'));
  });
});

describe('authOf: the caller of a context', () => {
  const model = modelWith(staticKey);

  test('no context: anonymous', () => {
    expect(authOf(undefined, model)).toBe(ANONYMOUS);
  });

  test('the caller the plugin stored is used as it is', () => {
    const stored: AuthResult = { authenticated: true, variables: { USER: 'bob' } };
    expect(authOf({ auth: stored, headers: { 'x-auth-token': 'garbage' } }, model)).toBe(stored);
  });

  test('without the plugin, the headers are verified once and the result kept on the context', () => {
    const context: AuthContext = { headers: { 'x-auth-token': tokenFor({ USER: 'alice' }) } };
    const first = authOf(context, model);
    expect(first).toMatchObject({ authenticated: true, variables: { USER: 'alice' } });
    expect(context.auth).toBe(first);
    context.headers = { 'x-auth-token': tokenFor({ USER: 'mallory' }) };
    expect(authOf(context, model)).toBe(first);
  });

  test.each<[string, AuthContext, SchemaModel]>([
    ['a context without headers', {}, model],
    ['a model without an Authorization line', { headers: { 'x-auth-token': 'garbage' } }, modelWith(undefined)],
  ])('%s: anonymous, kept on the context', (_case, context, ofModel) => {
    expect(authOf(context, ofModel)).toBe(ANONYMOUS);
    expect(context.auth).toBe(ANONYMOUS);
  });

  test('an invalid token is refused (401), not read as anonymous', () => {
    expect(() => authOf({ headers: { 'x-auth-token': 'not.a.token' } }, model)).toThrow(new AuthenticationError('jwt malformed', 'X-Auth-Token'));
  });
});

describe('authenticateRequest with key sets (JWKUrl)', () => {
  async function reasonOf(config: AuthorizationConfig, headers: Record<string, string>, keySets: KeySets): Promise<string> {
    const error = await authenticateRequest(config, headers, keySets).then(() => undefined, (thrown: unknown) => thrown);
    if (!(error instanceof AuthenticationError)) throw new Error(`expected AuthenticationError, got ${String(error)}`);
    expect(error.extensions).toEqual({ code: 'UNAUTHENTICATED', http: { status: 401 } });
    return error.reason;
  }

  test('a token whose kid is in the set: its namespace claims', async () => {
    const { keySets } = keySetsPublishing([es]);
    const auth = await authenticateRequest(keySetConfig, { 'x-auth-token': signWith(es, claimsOf('alice')) }, keySets);
    expect(auth).toEqual({ authenticated: true, variables: { USER: 'alice' }, claims: claimsOf('alice') });
  });

  test('no token: anonymous, without fetching the set', async () => {
    const { keySets, fetched } = keySetsPublishing([es]);
    expect(await authenticateRequest(keySetConfig, {}, keySets)).toBe(ANONYMOUS);
    expect(fetched).toEqual([]);
  });

  test('a static key configuration is verified without the key sets', async () => {
    const { keySets, fetched } = keySetsPublishing([es]);
    const auth = await authenticateRequest(staticKey, { 'x-auth-token': tokenFor({ USER: 'carol' }) }, keySets);
    expect(auth).toMatchObject({ authenticated: true, variables: { USER: 'carol' } });
    expect(fetched).toEqual([]);
  });

  test.each<[string, () => string, string]>([
    ['no kid', () => signWith(es, claimsOf('alice'), { kid: undefined }), 'the token has no "kid" header, which picks its key from the JWK Set'],
    ['an empty kid', () => signWith(es, claimsOf('alice'), { kid: '' }), 'the token has no "kid" header, which picks its key from the JWK Set'],
    ['a kid that is not a string', () => signWith(es, claimsOf('alice'), { kid: 7 }), 'the token has no "kid" header, which picks its key from the JWK Set'],
    ['a kid the set lacks', () => signWith(es, claimsOf('alice'), { kid: 'unknown-kid' }), 'no key with kid "unknown-kid" in the JWK Set'],
    ['a signature by another key under a known kid', () => signWith({ ...signingPair('ES256'), kid: es.kid }, claimsOf('alice')), 'invalid signature'],
    ['another audience', () => signWith(es, { ...claimsOf('alice'), aud: 'elsewhere' }), `jwt audience invalid. expected: ${AUDIENCE}`],
    ['"Bearer" and no token', () => 'Bearer', 'the header holds "Bearer" but no token'],
  ])('%s: refused saying why', async (_case, token, reason) => {
    expect(await reasonOf(keySetConfig, { 'x-auth-token': token() }, keySetsPublishing([es]).keySets)).toBe(reason);
  });

  test('verifyRequestToken cannot verify against key sets, which need fetching', () => {
    expect(() => verifyRequestToken(keySetConfig, {})).toThrow(new Error('an authorization line with JWKUrl/JWKUrls is verified by authenticateRequest, which fetches its keys'));
  });
});
