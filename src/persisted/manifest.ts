import { GraphQLError, Kind, parse, type OperationDefinitionNode } from 'graphql';
import { isSha256Hex, sha256Hex, utf8Bytes } from './hash.js';

/**
 * Apollo's persisted query manifest, as `generate-persisted-query-manifest` writes it:
 * `{ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ id, name, type, body }] }`.
 */
export const MANIFEST_FORMAT = 'apollo-persisted-query-manifest';
export const MANIFEST_VERSION = 1;

const OPERATION_TYPES = ['query', 'mutation', 'subscription'] as const;

export interface ManifestOperation {
  /** Lowercase hex SHA-256 of `body`. */
  hash: string;
  name: string;
  type: (typeof OPERATION_TYPES)[number];
  body: string;
}

/** A manifest that cannot be accepted; `problems` names each bad part, e.g. `operations[2] (GetUser): ...`. */
export class ManifestError extends Error {
  constructor(readonly problems: string[]) {
    super(`the persisted query manifest was not accepted, nothing was registered:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    this.name = 'ManifestError';
  }
}

/**
 * Checks a parsed manifest: its format and version, and for each operation that the id is the SHA-256
 * of the body, that the body parses and holds an operation of the given name and type, and that it fits
 * `maxQueryBytes`. Throws `ManifestError` listing every problem found.
 */
export function readManifest(manifest: unknown, maxQueryBytes: number): ManifestOperation[] {
  if (!isRecord(manifest)) {
    throw new ManifestError([`the manifest must be a JSON object, got ${kindOf(manifest)}`]);
  }
  const problems: string[] = [];
  if (manifest.format !== MANIFEST_FORMAT) {
    problems.push(`format must be "${MANIFEST_FORMAT}", got ${show(manifest.format)}`);
  }
  if (manifest.version !== MANIFEST_VERSION) {
    problems.push(`version must be ${MANIFEST_VERSION}, got ${show(manifest.version)}`);
  }
  if (!Array.isArray(manifest.operations)) {
    problems.push(`operations must be an array, got ${kindOf(manifest.operations)}`);
    throw new ManifestError(problems);
  }
  const operations: ManifestOperation[] = [];
  manifest.operations.forEach((entry: unknown, index: number) => {
    const found = readOperation(entry, maxQueryBytes);
    if (Array.isArray(found)) {
      const label = isRecord(entry) && typeof entry.name === 'string' && entry.name !== '' ? ` (${entry.name})` : '';
      problems.push(...found.map((problem) => `operations[${index}]${label}: ${problem}`));
    } else {
      operations.push(found);
    }
  });
  if (problems.length > 0) {
    throw new ManifestError(problems);
  }
  return operations;
}

/** The operation, or the list of what is wrong with it. */
function readOperation(entry: unknown, maxQueryBytes: number): ManifestOperation | string[] {
  if (!isRecord(entry)) {
    return [`must be an object with id, name, type and body, got ${kindOf(entry)}`];
  }
  const { id, name, type, body } = entry;
  const problems: string[] = [];
  if (!isSha256Hex(id)) {
    problems.push(`id must be the 64 hexadecimal digits of a SHA-256 hash, got ${show(id)}`);
  }
  if (typeof name !== 'string') {
    problems.push(`name must be a string, got ${kindOf(name)}`);
  }
  if (typeof type !== 'string' || !(OPERATION_TYPES as readonly string[]).includes(type)) {
    problems.push(`type must be one of ${OPERATION_TYPES.join(', ')}, got ${show(type)}`);
  }
  if (typeof body !== 'string' || body.trim() === '') {
    problems.push(`body must be the operation's GraphQL text, got ${typeof body === 'string' ? 'an empty string' : kindOf(body)}`);
    return problems;
  }
  const bytes = utf8Bytes(body);
  if (bytes > maxQueryBytes) {
    problems.push(`body is ${bytes} bytes; persisted queries may be at most ${maxQueryBytes} bytes`);
    return problems;
  }
  const actualHash = sha256Hex(body);
  if (isSha256Hex(id) && id.toLowerCase() !== actualHash) {
    problems.push(`id ${id} is not the SHA-256 of body (which is ${actualHash})`);
  }
  const knownType = typeof type === 'string' && (OPERATION_TYPES as readonly string[]).includes(type) ? type : undefined;
  problems.push(...checkBody(body, typeof name === 'string' ? name : undefined, knownType));
  if (problems.length > 0) {
    return problems;
  }
  return { hash: actualHash, name: name as string, type: type as ManifestOperation['type'], body };
}

function checkBody(body: string, name: string | undefined, type: string | undefined): string[] {
  let operations: OperationDefinitionNode[];
  try {
    operations = parse(body).definitions.filter(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    );
  } catch (error) {
    const where = error instanceof GraphQLError && error.locations?.[0] ? ` at ${error.locations[0].line}:${error.locations[0].column}` : '';
    return [`body does not parse${where}: ${error instanceof GraphQLError ? error.message : String(error)}`];
  }
  if (operations.length === 0) {
    return ['body holds no operation, only fragments'];
  }
  if (name === undefined || type === undefined) {
    return [];
  }
  const named = operations.find((operation) => (operation.name?.value ?? '') === name);
  if (named === undefined) {
    const names = operations.map((operation) => operation.name?.value ?? '(anonymous)').join(', ');
    return [`body has no operation named "${name}" (it has ${names})`];
  }
  if (named.operation !== type) {
    return [`type is "${type}", but the operation "${name}" in body is a ${named.operation}`];
  }
  return [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  return `a ${typeof value}`;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
