import { answerCors, graphqlCorsOffer, type CorsAnswer, type CorsPolicy, type CorsRequest } from '../../src/server/cors';

const LIST: CorsPolicy = { origins: ['https://app.example.com', 'http://localhost:3000'], maxAgeSeconds: 600 };
const ANY: CorsPolicy = { origins: '*', maxAgeSeconds: 600 };
const APP = 'https://app.example.com';

const post = (origin: string | undefined): CorsRequest => ({ method: 'POST', origin, requestMethod: undefined });
const preflight = (origin: string | undefined): CorsRequest => ({ method: 'OPTIONS', origin, requestMethod: 'POST' });

const BASE_HEADERS = 'content-type, apollo-require-preflight, x-apollo-operation-name, apollographql-client-name, apollographql-client-version, x-request-id';

const cases: Array<[string, CorsPolicy | undefined, CorsRequest, string | undefined, CorsAnswer]> = [
  ['CORS off: a cross-origin POST gets nothing', undefined, post(APP), undefined, { kind: 'none' }],
  ['CORS off: a preflight gets nothing (the route answers 405)', undefined, preflight(APP), undefined, { kind: 'none' }],
  ['no Origin header: not a cross-origin request', LIST, post(undefined), undefined, { kind: 'none' }],
  ['OPTIONS without Origin: not a preflight', LIST, preflight(undefined), undefined, { kind: 'none' }],
  ['listed origin, actual request', LIST, post(APP), undefined, { kind: 'actual', headers: { 'access-control-allow-origin': APP, vary: 'Origin' } }],
  ['unlisted origin, actual request: only Vary', LIST, post('https://evil.example'), undefined, { kind: 'actual', headers: { vary: 'Origin' } }],
  [
    'listed origin, preflight, no auth header in the schema',
    LIST,
    preflight('http://localhost:3000'),
    undefined,
    {
      kind: 'preflight',
      headers: {
        'access-control-allow-origin': 'http://localhost:3000',
        vary: 'Origin',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': BASE_HEADERS,
        'access-control-max-age': '600',
      },
    },
  ],
  [
    'listed origin, preflight, the schema’s auth header allowed (lower case)',
    LIST,
    preflight(APP),
    'X-Auth-Token',
    {
      kind: 'preflight',
      headers: {
        'access-control-allow-origin': APP,
        vary: 'Origin',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': `${BASE_HEADERS}, x-auth-token`,
        'access-control-max-age': '600',
      },
    },
  ],
  [
    'an auth header already in the base list is not repeated',
    LIST,
    preflight(APP),
    'Content-Type',
    {
      kind: 'preflight',
      headers: {
        'access-control-allow-origin': APP,
        vary: 'Origin',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': BASE_HEADERS,
        'access-control-max-age': '600',
      },
    },
  ],
  ['unlisted origin, preflight: refused', LIST, preflight('https://evil.example'), undefined, { kind: 'refused-preflight', origin: 'https://evil.example', headers: { vary: 'Origin' } }],
  ['origins compare exactly (scheme and port count)', LIST, post('http://app.example.com'), undefined, { kind: 'actual', headers: { vary: 'Origin' } }],
  ['*: any origin, actual request, no Vary', ANY, post('https://anyone.example'), undefined, { kind: 'actual', headers: { 'access-control-allow-origin': '*' } }],
  [
    '*: any origin, preflight',
    ANY,
    preflight('https://anyone.example'),
    'Authorization',
    {
      kind: 'preflight',
      headers: {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': `${BASE_HEADERS}, authorization`,
        'access-control-max-age': '600',
      },
    },
  ],
];

describe('answerCors', () => {
  it.each(cases)('%s', (_name, policy, request, authHeader, expected) => {
    expect(answerCors(policy, request, graphqlCorsOffer(authHeader))).toEqual(expected);
  });
});
