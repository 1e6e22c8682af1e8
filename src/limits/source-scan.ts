import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';
import { limitExceeded } from './errors.js';

const OPENING: ReadonlySet<string> = new Set([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING: ReadonlySet<string> = new Set([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Checks an operation text before it is parsed: its token count and how deep its brackets `{ [ (` nest.
 * graphql-js's parser recurses once per nesting level and overflows the stack near 1,500 levels, which no
 * later rule could report; the lexer used here walks the text in a loop. It stops after `maxTokens`
 * tokens, so its own work is bounded too. A text the lexer cannot read passes: the parser reports it.
 */
export function scanOperationSource(text: string, limits: { maxTokens: number; maxNesting: number }): GraphQLError | undefined {
  const source = new Source(text);
  const lexer = new Lexer(source);
  let tokens = 0;
  let nesting = 0;
  let deepest = 0;
  /** Where the nesting first passes the limit. */
  let pastLimitAt: number | undefined;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      tokens++;
      if (tokens > limits.maxTokens) {
        return limitExceeded('maxTokens', 'the number of tokens in the operation', `more than ${limits.maxTokens}`, limits.maxTokens);
      }
      if (OPENING.has(token.kind)) {
        nesting++;
        if (nesting > deepest) {
          deepest = nesting;
          if (deepest === limits.maxNesting + 1) pastLimitAt = token.start;
        }
      } else if (CLOSING.has(token.kind)) {
        nesting--;
      }
    }
  } catch (error) {
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
  if (deepest > limits.maxNesting) {
    const positions = pastLimitAt === undefined ? undefined : [pastLimitAt];
    return limitExceeded('maxNesting', 'the nesting of brackets { [ ( in the operation text', deepest, limits.maxNesting, { source, positions });
  }
  return undefined;
}
