import { loopbackHost, refuseUnlistedOrigin, refuseUntrustedBrowser, type BrowserHeaders, type CrossSiteRefusal } from '../../src/server/cross-site';

const at = (headers: Partial<BrowserHeaders>): BrowserHeaders => ({ host: '127.0.0.1:8080', origin: undefined, secFetchSite: undefined, localPort: 8080, ...headers });

describe('loopbackHost', () => {
  it.each<[string | undefined, number, string | undefined]>([
    ['127.0.0.1:8080', 8080, '127.0.0.1:8080'],
    ['127.42.0.9:8080', 8080, '127.42.0.9:8080'],
    ['localhost:8080', 8080, 'localhost:8080'],
    ['LocalHost:8080', 8080, 'localhost:8080'],
    ['[::1]:8080', 8080, '[::1]:8080'],
    ['[0:0:0:0:0:0:0:1]:8080', 8080, '[::1]:8080'],
    ['localhost', 80, 'localhost'],
    ['localhost:80', 80, 'localhost'],
    ['localhost', 8080, undefined],
    ['127.0.0.1:8081', 8080, undefined],
    ['evil.example:8080', 8080, undefined],
    ['localhost.evil.example:8080', 8080, undefined],
    ['127.0.0.1.nip.io:8080', 8080, undefined],
    ['10.0.0.1:8080', 8080, undefined],
    ['[::2]:8080', 8080, undefined],
    ['0.0.0.0:8080', 8080, undefined],
    ['127.0.0.1:8080@evil.example', 8080, undefined],
    ['127.0.0.1:8080/x', 8080, undefined],
    ['', 8080, undefined],
    [undefined, 8080, undefined],
  ])('Host %p at port %p → %p', (host, port, expected) => {
    expect(loopbackHost(host, port)).toBe(expected);
  });
});

describe('refuseUntrustedBrowser (no token: loopback callers trusted)', () => {
  it.each<[string, Partial<BrowserHeaders>, CrossSiteRefusal | undefined]>([
    ['curl: no Origin, no Sec-Fetch-Site', {}, undefined],
    ['HTTP/1.0 without Host', { host: undefined }, undefined],
    ['the service’s own page', { origin: 'http://127.0.0.1:8080', secFetchSite: 'same-origin' }, undefined],
    ['its own page under localhost', { host: 'localhost:8080', origin: 'http://localhost:8080', secFetchSite: 'same-origin' }, undefined],
    ['a typed URL', { secFetchSite: 'none' }, undefined],
    ['a cross-site page', { origin: 'https://evil.example' }, { kind: 'foreign-origin', origin: 'https://evil.example' }],
    ['another port on localhost (same-site)', { origin: 'http://127.0.0.1:3000' }, { kind: 'foreign-origin', origin: 'http://127.0.0.1:3000' }],
    ['127.0.0.1 page calling localhost', { host: 'localhost:8080', origin: 'http://127.0.0.1:8080' }, { kind: 'foreign-origin', origin: 'http://127.0.0.1:8080' }],
    ['https with the same host', { origin: 'https://127.0.0.1:8080' }, { kind: 'foreign-origin', origin: 'https://127.0.0.1:8080' }],
    ['Origin: null (sandboxed frame, file://)', { origin: 'null' }, { kind: 'foreign-origin', origin: 'null' }],
    ['an Origin without a Host', { host: undefined, origin: 'http://127.0.0.1:8080' }, { kind: 'foreign-origin', origin: 'http://127.0.0.1:8080' }],
    ['Sec-Fetch-Site: cross-site without Origin', { secFetchSite: 'cross-site' }, { kind: 'cross-site-fetch', site: 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { secFetchSite: 'same-site' }, { kind: 'cross-site-fetch', site: 'same-site' }],
    ['own Origin but Sec-Fetch-Site: cross-site', { origin: 'http://127.0.0.1:8080', secFetchSite: 'cross-site' }, { kind: 'cross-site-fetch', site: 'cross-site' }],
    ['DNS rebinding: a foreign Host', { host: 'evil.example:8080', origin: 'http://evil.example:8080', secFetchSite: 'same-origin' }, { kind: 'foreign-host', host: 'evil.example:8080' }],
    ['the right name with another port', { host: '127.0.0.1:9999' }, { kind: 'foreign-host', host: '127.0.0.1:9999' }],
  ])('%s', (_name, headers, expected) => {
    expect(refuseUntrustedBrowser(at(headers))).toEqual(expected);
  });
});

describe('refuseUnlistedOrigin (a token configured)', () => {
  const API = { host: 'api.example.com', localPort: 8080 };
  it.each<[string, Partial<BrowserHeaders>, '*' | readonly string[] | undefined, CrossSiteRefusal | undefined]>([
    ['curl from anywhere, any Host', { host: 'api.example.com' }, undefined, undefined],
    ['the service’s own page behind TLS', { ...API, origin: 'https://api.example.com', secFetchSite: 'same-origin' }, undefined, undefined],
    ['own origin, no Sec-Fetch-Site (older browser)', { ...API, origin: 'https://api.example.com' }, undefined, undefined],
    ['a same-origin page behind a proxy that rewrites Host', { host: '127.0.0.1:8080', origin: 'https://api.example.com', secFetchSite: 'same-origin' }, undefined, undefined],
    ['an unlisted origin', { ...API, origin: 'https://evil.example', secFetchSite: 'cross-site' }, ['https://console.example'], { kind: 'foreign-origin', origin: 'https://evil.example' }],
    ['an unlisted origin, no Sec-Fetch-Site', { ...API, origin: 'https://evil.example' }, undefined, { kind: 'foreign-origin', origin: 'https://evil.example' }],
    ['a same-site page is still another origin', { ...API, origin: 'https://www.example.com', secFetchSite: 'same-site' }, undefined, { kind: 'foreign-origin', origin: 'https://www.example.com' }],
    ['cross-site without Origin', { ...API, secFetchSite: 'cross-site' }, ['https://console.example'], { kind: 'cross-site-fetch', site: 'cross-site' }],
    ['a listed console', { ...API, origin: 'https://console.example', secFetchSite: 'cross-site' }, ['https://console.example'], undefined],
    ['any origin with *', { ...API, origin: 'https://anyone.example', secFetchSite: 'cross-site' }, '*', undefined],
  ])('%s', (_name, headers, corsOrigins, expected) => {
    expect(refuseUnlistedOrigin(at(headers), corsOrigins)).toEqual(expected);
  });
});
