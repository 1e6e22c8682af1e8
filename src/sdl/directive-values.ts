import { Kind, type ArgumentNode, type DirectiveNode, type ValueNode } from 'graphql';
import type { ErrorSink } from './errors.js';

/** Turns a bare message into one that names where it happened (`Type T; field f: ...`). */
export type Describe = (message: string) => string;

/**
 * The arguments of a directive by name. Unknown and repeated arguments are reported; `required` ones that
 * are missing too.
 */
export function directiveArguments(
  directive: DirectiveNode,
  spec: { allowed: readonly string[]; required?: readonly string[] },
  errors: ErrorSink,
  describe: Describe,
): Map<string, ArgumentNode> {
  const byName = new Map<string, ArgumentNode>();
  const at = `@${directive.name.value}`;
  for (const argument of directive.arguments ?? []) {
    const name = argument.name.value;
    if (!spec.allowed.includes(name)) {
      const known = spec.allowed.length === 0 ? 'it takes no arguments' : `known: ${spec.allowed.join(', ')}`;
      errors.at(describe(`${at} has no argument "${name}" (${known})`), argument);
    } else if (byName.has(name)) {
      errors.at(describe(`${at} repeats the argument "${name}"`), argument);
    } else {
      byName.set(name, argument);
    }
  }
  for (const name of spec.required ?? []) {
    if (!byName.has(name)) errors.at(describe(`${at} needs the argument "${name}"`), directive);
  }
  return byName;
}

export function stringValueOf(value: ValueNode): string | undefined {
  return value.kind === Kind.STRING ? value.value : undefined;
}

/** A name written either bare (`field: user`) or quoted (`field: "user"`). */
export function nameValueOf(value: ValueNode): string | undefined {
  if (value.kind === Kind.ENUM || value.kind === Kind.STRING) return value.value;
  return undefined;
}

/** The items of a list value; a single value counts as a list of one, as GraphQL input coercion does. */
export function listItemsOf(value: ValueNode): readonly ValueNode[] {
  return value.kind === Kind.LIST ? value.values : [value];
}

/** A short rendering of a value for messages. */
export function describeValue(value: ValueNode): string {
  switch (value.kind) {
    case Kind.STRING:
      return JSON.stringify(value.value);
    case Kind.ENUM:
    case Kind.INT:
    case Kind.FLOAT:
      return value.value;
    case Kind.BOOLEAN:
      return String(value.value);
    case Kind.NULL:
      return 'null';
    case Kind.VARIABLE:
      return `$${value.name.value}`;
    case Kind.LIST:
      return 'a list';
    case Kind.OBJECT:
      return 'an object';
  }
}
