/** The directives a schema may use, by where they go. Anything else is an error. */

export const TYPE_DIRECTIVES = ['key', 'extends', 'auth'] as const;
export const INTERFACE_DIRECTIVES = ['auth'] as const;
export const TYPE_FIELD_DIRECTIVES = [
  'id', 'search', 'hasInverse', 'external', 'provides', 'requires', 'lambda', 'custom', 'deprecated',
] as const;
/** Fields of Query/Mutation are computed: they take only the custom-logic directives. */
export const ROOT_FIELD_DIRECTIVES = ['lambda', 'custom', 'deprecated'] as const;

export type FieldDirectiveName = (typeof TYPE_FIELD_DIRECTIVES)[number];

const SUPPORTED: readonly string[] = [...TYPE_DIRECTIVES, ...TYPE_FIELD_DIRECTIVES];

/** Why a directive is rejected where it stands: misplaced, or not supported at all. */
export function rejectionReason(name: string, place: string, allowed: readonly string[]): string {
  const list = allowed.map((item) => `@${item}`).join(', ');
  return SUPPORTED.includes(name)
    ? `@${name} is not allowed on ${place} (allowed there: ${list})`
    : `@${name} is not a supported directive (allowed on ${place}: ${list})`;
}
