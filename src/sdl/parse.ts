import { GraphQLError, parse, type DocumentNode } from 'graphql';
import type { ErrorSink } from './errors.js';

/** The schema text as a GraphQL document; a syntax error is reported with its location and gives undefined. */
export function parseSchemaText(source: string, errors: ErrorSink): DocumentNode | undefined {
  try {
    return parse(source, { noLocation: false });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    errors.atLocations(error.message, (error.locations ?? []).map(({ line, column }) => ({ line, column })));
    return undefined;
  }
}
