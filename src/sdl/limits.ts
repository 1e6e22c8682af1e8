/**
 * Size limits of an uploaded schema, checked before the expensive stages. Building a schema's API takes
 * time in proportion to its size (in stages, with other requests served in between): measured with
 * bench/schema-build.ts on a shared, loaded 2-core machine, 500 small types take 0.3–0.6 s, 2,000 about
 * 1.6–2.5 s. graphql-js's parser recurses once per nested list or object, so `@search(by: [[[[...]]]])`
 * 5,000 deep overflows the stack: nesting and a lower bound of the counts are checked first, with its
 * lexer (text-scan.ts), so an oversized schema is never parsed. Each refusal names the limit, the value
 * found (or that it was passed) and the flag that raises it.
 */
import { Kind, type DocumentNode } from 'graphql';
import type { ErrorSink } from './errors.js';
import { scanSchemaText } from './text-scan.js';

export interface SchemaLimits {
  /** Largest schema text, in UTF-8 bytes. */
  maxBytes: number;
  /** Most object types and interfaces. */
  maxTypes: number;
  /** Most fields over all object types and interfaces. */
  maxFields: number;
  /** Deepest nesting of brackets, braces and parentheses (a type's fields, arguments, lists in directives). */
  maxDepth: number;
}

export const DEFAULT_SCHEMA_LIMITS: Readonly<SchemaLimits> = Object.freeze({
  maxBytes: 1024 * 1024,
  maxTypes: 500,
  maxFields: 10_000,
  maxDepth: 32,
});

/** The flag that raises each limit, for the messages. */
export const SCHEMA_LIMIT_FLAGS: Readonly<Record<keyof SchemaLimits, string>> = Object.freeze({
  maxBytes: '--schema-max-bytes',
  maxTypes: '--schema-max-types',
  maxFields: '--schema-max-fields',
  maxDepth: '--schema-max-depth',
});

/**
 * Checks what can be checked on the text alone: its size, then, in one pass of graphql-js's lexer (which
 * does not recurse) before its parser (which does), its nesting and a lower bound of its type and field
 * counts, so an oversized schema is refused without being parsed. False when the text must not be parsed.
 */
export function checkSchemaText(source: string, limits: SchemaLimits, errors: ErrorSink): boolean {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > limits.maxBytes) {
    errors.atLocations(`the schema is ${bytes} bytes, more than the limit of ${limits.maxBytes} (raise it with ${SCHEMA_LIMIT_FLAGS.maxBytes})`, []);
    return false;
  }
  const scan = scanSchemaText(source, limits);
  if (scan.tooDeepAt) {
    errors.atLocations(
      `brackets nested more than ${limits.maxDepth} deep (the limit; raise it with ${SCHEMA_LIMIT_FLAGS.maxDepth})`,
      [scan.tooDeepAt],
    );
    return false;
  }
  if (scan.types > limits.maxTypes) {
    errors.atLocations(`the schema has more than ${limits.maxTypes} types and interfaces (the limit; raise it with ${SCHEMA_LIMIT_FLAGS.maxTypes})`, []);
    return false;
  }
  if (scan.fields > limits.maxFields) {
    errors.atLocations(`the schema has more than ${limits.maxFields} fields (the limit; raise it with ${SCHEMA_LIMIT_FLAGS.maxFields})`, []);
    return false;
  }
  return true;
}

/** Counts the parsed document's types and fields against the limits: exact, where the text scan may count fewer. */
export function checkSchemaDocument(document: DocumentNode, limits: SchemaLimits, errors: ErrorSink): boolean {
  let types = 0;
  let fields = 0;
  for (const definition of document.definitions) {
    switch (definition.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.OBJECT_TYPE_EXTENSION:
      case Kind.INTERFACE_TYPE_DEFINITION:
      case Kind.INTERFACE_TYPE_EXTENSION:
        types++;
        fields += definition.fields?.length ?? 0;
        break;
      default:
        break;
    }
  }
  const problems: string[] = [];
  if (types > limits.maxTypes) {
    problems.push(`the schema has ${types} types and interfaces, more than the limit of ${limits.maxTypes} (raise it with ${SCHEMA_LIMIT_FLAGS.maxTypes})`);
  }
  if (fields > limits.maxFields) {
    problems.push(`the schema has ${fields} fields, more than the limit of ${limits.maxFields} (raise it with ${SCHEMA_LIMIT_FLAGS.maxFields})`);
  }
  for (const problem of problems) errors.atLocations(problem, []);
  return problems.length === 0;
}
