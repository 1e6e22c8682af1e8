import { isTrustedRequest, markTrustedRequest } from '../../src/persisted/index.js';

test('a marked request is trusted, and stays so when copied by object spread as Apollo Server does', () => {
  const request = markTrustedRequest({ query: '{ a }' });
  expect(JSON.stringify(request)).toBe('{"query":"{ a }"}');
  expect(isTrustedRequest(request)).toBe(true);
  expect(isTrustedRequest({ ...request })).toBe(true);
});

test.each([
  ['an unmarked request', { query: '{ a }' }],
  ['a request parsed from JSON that names the mark', JSON.parse('{"query":"{ a }","autograph.persisted.trustedRequest":true}') as object],
  ['a request with a look-alike symbol', { [Symbol('autograph.persisted.trustedRequest')]: true }],
  ['a request with a string-keyed mark', { 'Symbol(autograph.persisted.trustedRequest)': true }],
])('%s is not trusted', (_label, request) => {
  expect(isTrustedRequest(request)).toBe(false);
});
