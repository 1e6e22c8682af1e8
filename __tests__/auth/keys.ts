/** Keys and tokens for the tests: two fixed RS256 key pairs (see fixtures/rsa-test-keys.ts) and an HS256 secret. */
import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { RSA_TEST_PAIRS } from './fixtures/rsa-test-keys.js';

export const NAMESPACE = 'https://autograph.example/claims';
export const AUDIENCE = 'autograph-tests';

export const rsa = RSA_TEST_PAIRS[0];

/** Another pair, to sign tokens the service must not trust. */
export const otherRsa = RSA_TEST_PAIRS[1];

export const hsSecret = randomBytes(32).toString('hex');

export interface TokenOptions {
  algorithm?: 'RS256' | 'HS256';
  key?: string;
  audience?: string | string[];
  expiresIn?: number;
  notBefore?: number;
  namespace?: string;
  /** Claims written as a JSON string instead of an object. */
  claimsAsString?: boolean;
}

/** A token with `claims` under the namespace, signed RS256 with `rsa` unless told otherwise. */
export function tokenFor(claims: Record<string, unknown>, options: TokenOptions = {}): string {
  const algorithm = options.algorithm ?? 'RS256';
  const key = options.key ?? (algorithm === 'RS256' ? rsa.privateKey : hsSecret);
  const payload = { [options.namespace ?? NAMESPACE]: options.claimsAsString ? JSON.stringify(claims) : claims };
  const signOptions: jwt.SignOptions = { algorithm, audience: options.audience ?? AUDIENCE, expiresIn: options.expiresIn ?? 3600 };
  if (options.notBefore !== undefined) signOptions.notBefore = options.notBefore;
  return jwt.sign(payload, key, signOptions);
}

/** The Authorization line for the schema, with the PEM on one line (`\n` escapes). */
export function authorizationLine(options: { header?: string; algo?: 'RS256' | 'HS256'; audience?: string[]; closedByDefault?: boolean } = {}): string {
  const algo = options.algo ?? 'RS256';
  const config: Record<string, unknown> = {
    VerificationKey: algo === 'RS256' ? rsa.publicKey : hsSecret,
    Header: options.header ?? 'X-Auth-Token',
    Namespace: NAMESPACE,
    Algo: algo,
    Audience: options.audience ?? [AUDIENCE],
  };
  if (options.closedByDefault !== undefined) config.ClosedByDefault = options.closedByDefault;
  return `# Autograph.Authorization ${JSON.stringify(config)}`;
}
