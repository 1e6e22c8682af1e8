import { Kind, print, type TypeNode } from 'graphql';

/**
 * Whether a claim fits the type an `@auth` rule declares for its variable (`query($USER: String!)`),
 * following GraphQL's input coercion: a single value stands for a one-item list, an ID is a string or an
 * integer. Enums and other named types take strings. Null fits any type here: a rule whose claim is
 * absent matches nothing (see compile-rule.ts), it does not fail the request.
 */
export function claimTypeProblem(value: unknown, type: TypeNode): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (type.kind === Kind.NON_NULL_TYPE) return claimTypeProblem(value, type.type);
  if (type.kind === Kind.LIST_TYPE) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const problem = claimTypeProblem(item, type.type);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (Array.isArray(value)) return `a list where ${print(type)} is declared`;
  const fits = fitsNamedType(value, type.name.value);
  return fits ? undefined : `${describe(value)} where ${print(type)} is declared`;
}

function fitsNamedType(value: unknown, name: string): boolean {
  switch (name) {
    case 'Int':
    case 'Int64':
      return typeof value === 'number' && Number.isInteger(value);
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'Boolean':
      return typeof value === 'boolean';
    case 'ID':
      return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
    default:
      return typeof value === 'string';
  }
}

function describe(value: unknown): string {
  if (typeof value === 'object') return `an object ${JSON.stringify(value)}`;
  return `a ${typeof value} ${JSON.stringify(value)}`;
}
