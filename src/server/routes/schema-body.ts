import { Lexer, Source, TokenKind } from 'graphql';
import { HttpError } from '../http-io.js';

/**
 * Refuses a schema upload whose body was mangled on the way, before anything reads it as a schema:
 * - `curl -d @schema.graphql` strips the file's line breaks (and sends it form-encoded, as `--data-binary`
 *   does too), so a `#` comment then runs to the end of the text and swallows every definition after it;
 * - a JSON body (`{"schema": "..."}`) is not the schema text.
 * A form-encoded body that kept its line breaks, or has no comment, is the schema as curl's `--data-binary`
 * sends it (Dgraph's documented upload), and passes.
 */
export function refuseMangledSchemaBody(contentType: string | undefined, text: string): void {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') {
    throw new HttpError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'the schema upload takes the schema text itself as the body, not JSON: send the file as it is, e.g. curl --data-binary @schema.graphql',
    );
  }
  if (mediaType !== 'application/x-www-form-urlencoded' || /[\r\n]/.test(text)) return;
  const comment = firstComment(text);
  if (comment === undefined) return;
  throw new HttpError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `the schema arrived form-encoded and without line breaks, so its comment at column ${comment} runs to the end and hides everything after it ` +
      '(curl -d strips line breaks): send the file with curl --data-binary @schema.graphql',
  );
}

/** The column of the text's first `#` comment, as GraphQL's lexer reads it (so not a `#` inside a string). */
function firstComment(text: string): number | undefined {
  const lexer = new Lexer(new Source(text));
  try {
    while (lexer.advance().kind !== TokenKind.EOF);
  } catch {
    // Not even tokens: the upload's own validation says where.
    return undefined;
  }
  let first: number | undefined;
  for (let token = lexer.token.prev; token; token = token.prev) {
    if (token.kind === TokenKind.COMMENT) first = token.column;
  }
  return first;
}
