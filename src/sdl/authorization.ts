import { createPublicKey } from 'node:crypto';
import type { ErrorSink } from './errors.js';
import { JWT_ALGORITHMS, type AuthorizationConfig, type JwtAlgorithm, type SourceLocation } from './model.js';

/**
 * The authorization line: the schema's last non-empty line, a comment holding a JSON object,
 * `# Autograph.Authorization {"Header": ..., ...}` (`# Dgraph.Authorization` is accepted too, so Dgraph
 * schemas load unchanged).
 */

const MARKER = /^(\s*)#\s*([A-Za-z_][\w-]*)\.Authorization\b/;
const ACCEPTED_MARKERS = ['Autograph', 'Dgraph'];
const KEYS = ['VerificationKey', 'JWKUrl', 'JWKUrls', 'Header', 'Namespace', 'Algo', 'Audience', 'ClosedByDefault'] as const;
const REQUIRED_KEYS = ['Header', 'Namespace'] as const;

type Key = (typeof KEYS)[number];

interface AuthorizationLine {
  lineNumber: number;
  line: string;
  /** 0-based offset of the JSON text within the line. */
  jsonStart: number;
}

export function readAuthorization(source: string, errors: ErrorSink): AuthorizationConfig | undefined {
  const line = findAuthorizationLine(source, errors);
  return line && configOf(line, errors);
}

function findAuthorizationLine(source: string, errors: ErrorSink): AuthorizationLine | undefined {
  const lines = source.split(/\r\n|\r|\n/);
  let last = lines.length - 1;
  while (last >= 0 && lines[last].trim() === '') last -= 1;

  let found: AuthorizationLine | undefined;
  lines.forEach((line, index) => {
    const match = MARKER.exec(line);
    if (!match) return;
    const where: SourceLocation = { line: index + 1, column: match[1].length + 1 };
    const marker = match[2];
    if (index !== last) {
      errors.atLocations(`Authorization line: # ${marker}.Authorization must be the last line of the schema`, [where]);
    } else if (!ACCEPTED_MARKERS.includes(marker)) {
      errors.atLocations(
        `Authorization line: unknown authorization marker # ${marker}.Authorization (use # Autograph.Authorization or # Dgraph.Authorization)`,
        [where],
      );
    } else {
      found = { lineNumber: index + 1, line, jsonStart: match[0].length };
    }
  });
  return found;
}

function configOf(authLine: AuthorizationLine, errors: ErrorSink): AuthorizationConfig | undefined {
  const jsonText = authLine.line.slice(authLine.jsonStart);
  const jsonColumn = authLine.jsonStart + (jsonText.length - jsonText.trimStart().length) + 1;
  const at = (column: number): SourceLocation[] => [{ line: authLine.lineNumber, column }];
  const keyAt = (key: string): SourceLocation[] => {
    const offset = jsonText.indexOf(`"${key}"`);
    return at(offset >= 0 ? authLine.jsonStart + offset + 1 : jsonColumn);
  };

  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonText);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(reason);
    const column = position ? authLine.jsonStart + Number(position[1]) + 1 : jsonColumn;
    errors.atLocations(`Authorization line: the JSON object is malformed (${reason})`, at(column));
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    errors.atLocations('Authorization line: expected a JSON object after the marker', at(jsonColumn));
    return undefined;
  }
  const record = parsed as Record<string, unknown>;
  let valid = true;
  const fail = (key: string, message: string): void => {
    errors.atLocations(`Authorization line: ${message}`, keyAt(key));
    valid = false;
  };

  for (const key of Object.keys(record)) {
    if (!(KEYS as readonly string[]).includes(key)) fail(key, `unknown key "${key}" (known: ${KEYS.join(', ')})`);
  }
  for (const key of REQUIRED_KEYS) {
    if (!(key in record)) {
      errors.atLocations(`Authorization line: "${key}" is required`, at(jsonColumn));
      valid = false;
    }
  }

  const text = (key: Key): string | undefined => {
    if (!(key in record)) return undefined;
    const value = record[key];
    if (typeof value !== 'string' || value.trim() === '') {
      fail(key, `"${key}" must be a non-empty string`);
      return undefined;
    }
    return value;
  };
  const header = text('Header');
  const namespace = text('Namespace');
  const audience = audienceOf(record.Audience);
  if (!audience) fail('Audience', '"Audience" must be an array of strings');
  const closedByDefault = record.ClosedByDefault ?? false;
  if (typeof closedByDefault !== 'boolean') fail('ClosedByDefault', '"ClosedByDefault" must be true or false');
  const usesKeySet = 'JWKUrl' in record || 'JWKUrls' in record;
  const keys = usesKeySet ? keySetOf(record, fail, text) : staticKeyOf(record, fail, text, at(jsonColumn), errors);
  if (usesKeySet && audience?.length === 0) {
    fail('JWKUrl' in record ? 'JWKUrl' : 'JWKUrls', '"Audience" is required with JWKUrl or JWKUrls (a published key set signs tokens for other clients too)');
  }

  if (!valid || !keys || !header || namespace === undefined || !audience || typeof closedByDefault !== 'boolean') return undefined;
  return { ...keys, header, namespace, audience, closedByDefault };
}

type Fail = (key: string, message: string) => void;
type TextOf = (key: Key) => string | undefined;

/** `VerificationKey` and `Algo`: one key, written in the schema. */
function staticKeyOf(
  record: Record<string, unknown>, fail: Fail, text: TextOf, objectAt: SourceLocation[], errors: ErrorSink,
): { verificationKey: string; algo: JwtAlgorithm } | undefined {
  for (const key of ['VerificationKey', 'Algo'] as const) {
    if (!(key in record)) errors.atLocations(`Authorization line: "${key}" is required (or JWKUrl/JWKUrls instead of VerificationKey and Algo)`, objectAt);
  }
  const algoText = text('Algo');
  const algo = JWT_ALGORITHMS.find((name) => name === algoText);
  if (algoText !== undefined && !algo) fail('Algo', `"Algo" must be ${JWT_ALGORITHMS.slice(0, -1).join(', ')} or ${JWT_ALGORITHMS.at(-1)}, found ${JSON.stringify(algoText)}`);
  const rawKey = text('VerificationKey');
  const verificationKey = rawKey === undefined ? undefined : rawKey.replace(/\\n/g, '\n');
  if (verificationKey !== undefined && algo !== undefined && algo !== 'HS256') {
    const problem = publicKeyProblem(verificationKey, algo);
    if (problem) fail('VerificationKey', `"VerificationKey" is not ${PUBLIC_KEY_KINDS[algo].name} public key in PEM form, as ${algo} needs (${problem})`);
  }
  return verificationKey !== undefined && algo !== undefined ? { verificationKey, algo } : undefined;
}

/** `JWKUrl` or `JWKUrls` (Dgraph's rules): one of them, http(s) URLs, and neither `VerificationKey` nor `Algo`. */
function keySetOf(record: Record<string, unknown>, fail: Fail, text: TextOf): { jwkUrls: string[] } | undefined {
  if ('JWKUrl' in record && 'JWKUrls' in record) fail('JWKUrls', 'give either "JWKUrl" or "JWKUrls", not both');
  for (const key of ['VerificationKey', 'Algo'] as const) {
    if (key in record) fail(key, `"${key}" is not used with JWKUrl/JWKUrls: the key set's keys name their algorithms`);
  }
  let urls: string[] | undefined;
  if ('JWKUrl' in record) {
    const url = text('JWKUrl');
    urls = url === undefined ? undefined : [url];
  } else {
    const value = record.JWKUrls;
    if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) urls = value as string[];
    else fail('JWKUrls', '"JWKUrls" must be a non-empty array of URLs');
  }
  const where = 'JWKUrl' in record ? 'JWKUrl' : 'JWKUrls';
  const bad = urls?.find((url) => !isHttpUrl(url));
  if (bad !== undefined) {
    fail(where, `"${where}" must hold http:// or https:// URLs, found ${JSON.stringify(bad)}`);
    return undefined;
  }
  return urls && { jwkUrls: urls };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function audienceOf(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return undefined;
  return value as string[];
}

/** The public key each asymmetric algorithm verifies with, as node:crypto names it. */
const PUBLIC_KEY_KINDS: Record<Exclude<JwtAlgorithm, 'HS256'>, { name: string; type: string; curve?: string }> = {
  RS256: { name: 'an RSA', type: 'rsa' },
  ES256: { name: 'an EC P-256', type: 'ec', curve: 'prime256v1' },
  EdDSA: { name: 'an Ed25519', type: 'ed25519' },
};

function publicKeyProblem(pem: string, algo: Exclude<JwtAlgorithm, 'HS256'>): string | undefined {
  const wanted = PUBLIC_KEY_KINDS[algo];
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== wanted.type) return `it is a ${key.asymmetricKeyType ?? 'non-asymmetric'} key`;
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (wanted.curve !== undefined && curve !== wanted.curve) return `its curve is ${curve ?? 'unknown'}`;
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
