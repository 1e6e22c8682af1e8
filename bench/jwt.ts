/**
 * `npm run bench -- jwt`: what verifying a request's token costs, per algorithm, with the service's
 * node:crypto verifier (auth/token.ts), beside jsonwebtoken (the verifier it replaced) where that library
 * has the algorithm, and through a JWK Set served on loopback (cached after the first fetch). Runs each
 * case for BENCH_SECONDS (default 1) and prints microseconds per verification.
 */
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import jwt from 'jsonwebtoken';
import { authenticateRequest, KeySets, verifyRequestToken } from '../src/auth/index.js';
import type { AuthorizationConfig, JwtAlgorithm } from '../src/sdl/model.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
const NAMESPACE = 'https://bench.example/claims';
const AUDIENCE = 'bench';

interface Case {
  algorithm: JwtAlgorithm;
  privateKey: KeyObject | string;
  /** PEM public key, or the shared secret. */
  verificationKey: string;
  publicKey?: KeyObject;
}

const secret = 'a shared secret for the benchmark only';
const pairs = {
  RS256: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  ES256: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  EdDSA: generateKeyPairSync('ed25519'),
};
const CASES: Case[] = [
  { algorithm: 'HS256', privateKey: secret, verificationKey: secret },
  ...(['RS256', 'ES256', 'EdDSA'] as const).map((algorithm) => ({
    algorithm,
    privateKey: pairs[algorithm].privateKey,
    publicKey: pairs[algorithm].publicKey,
    verificationKey: pairs[algorithm].publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  })),
];

function token({ algorithm, privateKey }: Case, kid?: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: algorithm, typ: 'JWT', ...(kid ? { kid } : {}) })}.${part({ aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600, [NAMESPACE]: { USER: 'alice' } })}`;
  const data = Buffer.from(input);
  const signature = algorithm === 'HS256' ? createHmac('sha256', privateKey as string).update(data).digest()
    : algorithm === 'ES256' ? sign('sha256', data, { key: privateKey as KeyObject, dsaEncoding: 'ieee-p1363' })
      : sign(algorithm === 'RS256' ? 'sha256' : null, data, privateKey as KeyObject);
  return `${input}.${signature.toString('base64url')}`;
}

async function microsPerCall(run: () => unknown): Promise<number> {
  for (let i = 0; i < 200; i += 1) await run();
  let calls = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i += 1) await run();
    calls += 100;
  }
  return ((performance.now() - start) * 1000) / calls;
}

async function main(): Promise<void> {
  const keys = CASES.filter((c) => c.publicKey).map((c) => ({ ...c.publicKey!.export({ format: 'jwk' }), kid: c.algorithm, alg: c.algorithm }));
  const server = createServer((_req, res) => res.end(JSON.stringify({ keys })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwkUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  const keySets = new KeySets();
  const rows: string[] = ['| algorithm | jsonwebtoken 9 (µs) | VerificationKey (µs) | JWKUrl, cached (µs) |', '|---|---|---|---|'];
  for (const c of CASES) {
    const config: AuthorizationConfig = { verificationKey: c.verificationKey, algo: c.algorithm, header: 'X-Auth-Token', namespace: NAMESPACE, audience: [AUDIENCE], closedByDefault: false };
    const headers = { 'x-auth-token': token(c) };
    const library = c.algorithm === 'EdDSA' ? undefined
      : await microsPerCall(() => jwt.verify(headers['x-auth-token'], c.verificationKey, { algorithms: [c.algorithm as jwt.Algorithm], audience: AUDIENCE }));
    const own = await microsPerCall(() => verifyRequestToken(config, headers));
    let remote: number | undefined;
    if (c.publicKey) {
      const setConfig: AuthorizationConfig = { jwkUrls: [jwkUrl], header: 'X-Auth-Token', namespace: NAMESPACE, audience: [AUDIENCE], closedByDefault: false };
      const setHeaders = { 'x-auth-token': token(c, c.algorithm) };
      remote = await microsPerCall(() => authenticateRequest(setConfig, setHeaders, keySets));
    }
    const cell = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(1));
    rows.push(`| ${c.algorithm} | ${cell(library)} | ${cell(own)} | ${cell(remote)} |`);
  }
  server.close();
  console.log(`Token verification, ${SECONDS} s per cell (one core, in process):\n${rows.join('\n')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
