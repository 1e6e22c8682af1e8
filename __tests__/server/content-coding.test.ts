import { acceptsGzip, requestCoding } from '../../src/server/content-coding';

/** Reading Content-Encoding and Accept-Encoding (RFC 9110 8.4 and 12.5.3). */
describe('requestCoding', () => {
  it.each([
    [undefined, { kind: 'identity' }],
    ['', { kind: 'identity' }],
    ['identity', { kind: 'identity' }],
    ['gzip', { kind: 'gzip' }],
    [' GZIP ', { kind: 'gzip' }],
    ['x-gzip', { kind: 'gzip' }],
    ['br', { kind: 'unsupported', header: 'br' }],
    ['deflate', { kind: 'unsupported', header: 'deflate' }],
    ['gzip, gzip', { kind: 'unsupported', header: 'gzip, gzip' }],
  ])('%p reads as %p', (header, coding) => {
    expect(requestCoding(header)).toEqual(coding);
  });
});

describe('acceptsGzip', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['deflate, GZip;q=0.5', true],
    ['x-gzip', true],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['gzip;q=abc', false],
    ['br', false],
    ['identity', false],
    ['*', true],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
    ['br, *;q=0.1', true],
  ])('%p: %p', (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted);
  });
});
