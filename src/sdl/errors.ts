import type { ASTNode } from 'graphql';
import type { SchemaError, SourceLocation } from './model.js';

/** Where a node starts in the schema text (1-based, as graphql-js counts). */
export function locationOf(node: ASTNode): SourceLocation {
  const token = node.loc?.startToken;
  return token ? { line: token.line, column: token.column } : { line: 1, column: 1 };
}

/** `Type Task: ...` — the prefix every type-level message starts with. */
export function typeMessage(typeName: string, message: string): string {
  return `Type ${typeName}: ${message}`;
}

/** `Type Task; field title: ...` — the prefix every field-level message starts with. */
export function fieldMessage(typeName: string, fieldName: string, message: string): string {
  return `Type ${typeName}; field ${fieldName}: ${message}`;
}

/**
 * Collects every error of one upload, so the user sees all of them at once. Errors come out ordered by
 * their first location, so the report reads top to bottom like the schema.
 */
export class ErrorSink {
  private readonly collected: SchemaError[] = [];

  /** An error located at the start of each given node (at least one). */
  at(message: string, ...nodes: ASTNode[]): void {
    this.collected.push({ message, locations: nodes.map(locationOf) });
  }

  /** An error at explicit positions (for text the GraphQL parser never sees, like the authorization line). */
  atLocations(message: string, locations: SourceLocation[]): void {
    this.collected.push({ message, locations });
  }

  get isEmpty(): boolean {
    return this.collected.length === 0;
  }

  sorted(): SchemaError[] {
    return this.collected
      .map((error, order) => ({ error, order }))
      .sort((a, b) => compareLocations(a.error.locations[0], b.error.locations[0]) || a.order - b.order)
      .map(({ error }) => error);
  }
}

function compareLocations(a: SourceLocation | undefined, b: SourceLocation | undefined): number {
  if (!a || !b) return (a ? 1 : 0) - (b ? 1 : 0);
  return a.line - b.line || a.column - b.column;
}
