import { Kind, type ValueNode } from 'graphql';

/**
 * GraphQL value literals of a rule → JS values, with `$VARIABLE`s taken from the caller's claims. A rule
 * whose variable the claims lack cannot match anything, so the conversion reports it instead of
 * inventing a value.
 */

export type Substituted = { ok: true; value: unknown } | { ok: false; missing: string };

class MissingVariable {
  constructor(readonly name: string) {}
}

function convert(node: ValueNode, variables: Readonly<Record<string, unknown>>, defaults: ReadonlyMap<string, ValueNode>): unknown {
  switch (node.kind) {
    case Kind.VARIABLE: {
      const name = node.name.value;
      const value = variables[name];
      if (value !== undefined && value !== null) return value;
      const fallback = defaults.get(name);
      if (fallback) return convert(fallback, {}, new Map());
      throw new MissingVariable(name);
    }
    case Kind.INT:
      return Number.parseInt(node.value, 10);
    case Kind.FLOAT:
      return Number.parseFloat(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((item) => convert(item, variables, defaults));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, convert(field.value, variables, defaults)]));
  }
}

/** The value of `node` with variables substituted, or which variable the claims lack. */
export function substitute(node: ValueNode, variables: Readonly<Record<string, unknown>>, defaults: ReadonlyMap<string, ValueNode> = new Map()): Substituted {
  try {
    return { ok: true, value: convert(node, variables, defaults) };
  } catch (error) {
    if (error instanceof MissingVariable) return { ok: false, missing: error.name };
    throw error;
  }
}
