import { createPublicKey } from 'node:crypto';
import type { ErrorSink } from './errors.js';
import type { AuthorizationConfig, SourceLocation } from './model.js';

/**
 * The authorization line: the schema's last non-empty line, a comment holding a JSON object,
 * `# Autograph.Authorization {"Header": ..., ...}` (`# Dgraph.Authorization` is accepted too, so Dgraph
 * schemas load unchanged).
 */

const MARKER = /^(\s*)#\s*([A-Za-z_][\w-]*)\.Authorization\b/;
const ACCEPTED_MARKERS = ['Autograph', 'Dgraph'];
const KEYS = ['VerificationKey', 'Header', 'Namespace', 'Algo', 'Audience', 'ClosedByDefault'] as const;
const REQUIRED_KEYS = ['VerificationKey', 'Header', 'Namespace', 'Algo'] as const;
const ALGORITHMS = ['RS256', 'HS256'] as const;

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
  const algoText = text('Algo');
  const algo = ALGORITHMS.find((name) => name === algoText);
  if (algoText !== undefined && !algo) fail('Algo', `"Algo" must be ${ALGORITHMS.join(' or ')}, found ${JSON.stringify(algoText)}`);
  const rawKey = text('VerificationKey');
  const verificationKey = rawKey === undefined ? undefined : rawKey.replace(/\\n/g, '\n');
  if (verificationKey !== undefined && algo === 'RS256') {
    const problem = rsaPublicKeyProblem(verificationKey);
    if (problem) fail('VerificationKey', `"VerificationKey" is not an RSA public key in PEM form, as RS256 needs (${problem})`);
  }
  const audience = audienceOf(record.Audience);
  if (!audience) fail('Audience', '"Audience" must be an array of strings');
  const closedByDefault = record.ClosedByDefault ?? false;
  if (typeof closedByDefault !== 'boolean') fail('ClosedByDefault', '"ClosedByDefault" must be true or false');

  if (!valid || !header || namespace === undefined || !algo || !verificationKey || !audience || typeof closedByDefault !== 'boolean') {
    return undefined;
  }
  return { verificationKey, header, namespace, algo, audience, closedByDefault };
}

function audienceOf(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return undefined;
  return value as string[];
}

function rsaPublicKeyProblem(pem: string): string | undefined {
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === 'rsa' ? undefined : `it is a ${key.asymmetricKeyType ?? 'non-RSA'} key`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
