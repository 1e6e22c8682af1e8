/**
 * One pass of graphql-js's lexer (which does not recurse) over a schema text, before it is parsed: how
 * deep its brackets nest, and how many types, interfaces and fields it declares. The counts are lower
 * bounds: a definition the scan cannot place for sure (`type` right after `scalar X` or `union U = A`) is
 * left out, never counted twice, so a schema within the limits is never refused here and the exact count
 * after the parse catches what the scan missed. The scan stops at the first limit passed, so refusing a
 * schema many times too large costs about as much as reading one at the limits.
 */
import { GraphQLError, Lexer, Source, TokenKind, type Token } from 'graphql';
import type { SourceLocation } from './model.js';

export interface TextScanLimits {
  maxTypes: number;
  maxFields: number;
  maxDepth: number;
}

export interface TextScan {
  /** The first bracket nested past `maxDepth`. */
  tooDeepAt?: SourceLocation;
  /** Types and interfaces (definitions and extensions) seen, at most `maxTypes + 1`. */
  types: number;
  /** Fields of those types and interfaces seen, at most `maxFields + 1`. */
  fields: number;
}

const OPENING = new Set<string>([TokenKind.BRACKET_L, TokenKind.BRACE_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACKET_R, TokenKind.BRACE_R, TokenKind.PAREN_R]);
/** Definition keywords whose braces hold fields that the limits count. */
const TYPES_WITH_FIELDS = new Set(['type', 'interface']);
/** Definition keywords whose braces hold something else (input fields, enum values, root operations). */
const OTHER_DEFINITIONS = new Set(['input', 'enum', 'union', 'scalar', 'directive', 'schema']);

/** Scans `text` until its end, its first lexer error (the parser reports that), or the first limit passed. */
export function scanSchemaText(text: string, limits: TextScanLimits): TextScan {
  const lexer = new Lexer(new Source(text));
  const scan: TextScan = { types: 0, fields: 0 };
  let depth = 0;
  // At the top level, whether the next token can only start a definition: at the start, after a
  // definition's closing brace, after a description, after `extend`.
  let atDefinitionStart = true;
  // The top-level definition being read is a type or an interface, so its braces hold counted fields.
  let inTypeWithFields = false;
  let inFieldBraces = false;
  let previous: Token | undefined;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; previous = token, token = lexer.advance()) {
      if (OPENING.has(token.kind)) {
        if (depth === 0) {
          atDefinitionStart = false;
          if (token.kind === TokenKind.BRACE_L) inFieldBraces = inTypeWithFields;
        }
        depth++;
        if (depth > limits.maxDepth) {
          scan.tooDeepAt = { line: token.line, column: token.column };
          return scan;
        }
      } else if (CLOSING.has(token.kind)) {
        depth--;
        if (depth === 0 && token.kind === TokenKind.BRACE_R) {
          atDefinitionStart = true;
          inTypeWithFields = false;
          inFieldBraces = false;
        }
      } else if (depth === 0) {
        if (token.kind === TokenKind.STRING || token.kind === TokenKind.BLOCK_STRING) {
          atDefinitionStart = true;
        } else if (token.kind === TokenKind.NAME && atDefinitionStart && token.value === 'extend') {
          atDefinitionStart = true;
        } else {
          if (token.kind === TokenKind.NAME && atDefinitionStart && TYPES_WITH_FIELDS.has(token.value)) {
            inTypeWithFields = true;
            if (++scan.types > limits.maxTypes) return scan;
          } else if (token.kind === TokenKind.NAME && OTHER_DEFINITIONS.has(token.value)) {
            inTypeWithFields = false;
          }
          atDefinitionStart = false;
        }
      } else if (depth === 1 && inFieldBraces && isFieldName(token, previous, lexer)) {
        if (++scan.fields > limits.maxFields) return scan;
      }
    }
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
  }
  return scan;
}

/** `name:` or `name(` directly inside a type's braces, and not a directive's name (`@search(`). */
function isFieldName(token: Token, previous: Token | undefined, lexer: Lexer): boolean {
  if (token.kind !== TokenKind.NAME || previous?.kind === TokenKind.AT) return false;
  const next = lexer.lookahead().kind;
  return next === TokenKind.COLON || next === TokenKind.PAREN_L;
}
