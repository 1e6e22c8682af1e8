import { connectionHeaders } from '../../src/live/connection-auth.js';

describe('the headers a WebSocket connection authenticates with', () => {
  const cases: Array<[name: string, upgrade: Record<string, string | string[]>, payload: Record<string, unknown> | undefined, expected: Record<string, string>]> = [
    ['upgrade headers only', { 'x-auth-token': 'u' }, undefined, { 'x-auth-token': 'u' }],
    ['the payload’s top level overrides them, any case', { 'x-auth-token': 'u' }, { 'X-Auth-Token': 'p' }, { 'x-auth-token': 'p' }],
    ['the payload’s headers object', {}, { headers: { Authorization: 'Bearer t' } }, { authorization: 'Bearer t' }],
    ['only string values count', { host: 'h' }, { retries: 3, token: null, nested: { a: 'b' } }, { host: 'h' }],
    ['repeated upgrade headers are joined', { 'x-a': ['1', '2'] }, {}, { 'x-a': '1, 2' }],
  ];
  it.each(cases)('%s', (_name, upgrade, payload, expected) => {
    expect(connectionHeaders(upgrade, payload)).toEqual(expected);
  });
});
