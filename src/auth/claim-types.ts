import { Kind, print, type TypeNode } from 'graphql';

/**
 * Whether a claim fits the type an `@auth` rule declares for its variable (`query($USER: String!)`),
 * following GraphQL's input coercion: a single value stands for a one-item list, an ID is a string or an
 * integer. Enums and other named types take strings. Null fits any type here: a rule whose claim is
 * absent matches nothing (see compile-rule.ts), it does not fail the request.
 * Answers what is wrong (`a number 42 where String! is declared`), or undefined when the claim fits.
 */
export function claimTypeProblem(value: unknown, declared: TypeNode): string | undefined {
  return fits(value, declared) ? undefined : `${describe(value)} where ${print(declared)} is declared`;
}

/** A list never fits a named type: every case below asks for a string, a number or a boolean. */
function fits(value: unknown, type: TypeNode): boolean {
  if (value === null || value === undefined) return true;
  if (type.kind === Kind.NON_NULL_TYPE) return fits(value, type.type);
  if (type.kind === Kind.LIST_TYPE) return (Array.isArray(value) ? value : [value]).every((item) => fits(item, type.type));
  switch (type.name.value) {
    case 'Int':
    case 'Int64':
      return Number.isInteger(value);
    case 'Float':
      return Number.isFinite(value);
    case 'Boolean':
      return typeof value === 'boolean';
    case 'ID':
      return typeof value === 'string' || Number.isInteger(value);
    default:
      return typeof value === 'string';
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `a list ${JSON.stringify(value)}`;
  if (typeof value === 'object') return `an object ${JSON.stringify(value)}`;
  return `a ${typeof value} ${JSON.stringify(value)}`;
}
