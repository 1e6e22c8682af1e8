/** The directives a schema may use, by where they go. Anything else is an error. */

export const TYPE_DIRECTIVES = ['key', 'extends', 'auth', 'generate', 'secret', 'dgraph', 'withSubscription', 'lambdaOnMutate'] as const;
export const INTERFACE_DIRECTIVES = ['auth', 'generate', 'secret', 'dgraph', 'withSubscription', 'lambdaOnMutate'] as const;
export const TYPE_FIELD_DIRECTIVES = [
  'id', 'search', 'hasInverse', 'external', 'provides', 'requires', 'lambda', 'custom', 'deprecated',
  'default', 'dgraph',
] as const;
/** Fields of Query/Mutation are computed: they take only the custom-logic directives (and a @lambda query `@withSubscription`). */
export const ROOT_FIELD_DIRECTIVES = ['lambda', 'custom', 'deprecated', 'withSubscription'] as const;

/** What Federation 2 (a schema with a federation `@link`) adds at each place. */
export const FEDERATION_2_TYPE_DIRECTIVES = ['shareable', 'inaccessible', 'tag', 'interfaceObject'] as const;
export const FEDERATION_2_INTERFACE_DIRECTIVES = ['inaccessible', 'tag'] as const;
export const FEDERATION_2_FIELD_DIRECTIVES = ['shareable', 'inaccessible', 'tag', 'override'] as const;
export const FEDERATION_2_ROOT_FIELD_DIRECTIVES = ['shareable', 'inaccessible', 'tag'] as const;

export type FieldDirectiveName =
  | (typeof TYPE_FIELD_DIRECTIVES)[number]
  | (typeof ROOT_FIELD_DIRECTIVES)[number]
  | (typeof FEDERATION_2_FIELD_DIRECTIVES)[number];
export type TypeDirectiveName = (typeof TYPE_DIRECTIVES)[number] | (typeof FEDERATION_2_TYPE_DIRECTIVES)[number];

/** Directives that may stand more than once at one place. */
export const REPEATABLE_DIRECTIVES: readonly string[] = ['tag', 'key'];

export type DirectivePlace = 'type' | 'interface' | 'field' | 'rootField';

const BY_PLACE: Record<DirectivePlace, { 1: readonly string[]; 2: readonly string[] }> = {
  type: { 1: TYPE_DIRECTIVES, 2: FEDERATION_2_TYPE_DIRECTIVES },
  interface: { 1: INTERFACE_DIRECTIVES, 2: FEDERATION_2_INTERFACE_DIRECTIVES },
  field: { 1: TYPE_FIELD_DIRECTIVES, 2: FEDERATION_2_FIELD_DIRECTIVES },
  rootField: { 1: ROOT_FIELD_DIRECTIVES, 2: FEDERATION_2_ROOT_FIELD_DIRECTIVES },
};

/** The directives allowed at `place` for a schema of the given federation version. */
export function allowedDirectives(place: DirectivePlace, version: 1 | 2): readonly string[] {
  const { 1: base, 2: added } = BY_PLACE[place];
  return version === 2 ? [...base, ...added] : base;
}

const SUPPORTED: readonly string[] = [...TYPE_DIRECTIVES, ...TYPE_FIELD_DIRECTIVES];
const FEDERATION_2_ONLY: readonly string[] = [...FEDERATION_2_TYPE_DIRECTIVES, ...FEDERATION_2_FIELD_DIRECTIVES, 'composeDirective'];

/** Why a directive is rejected where it stands: misplaced, only for Federation 2, or not supported at all. */
export function rejectionReason(name: string, place: string, allowed: readonly string[]): string {
  if (name === 'remoteResponse') return '@remoteResponse directive can only be defined on fields of @remote type';
  if (name === 'remote') return '@remote is allowed on types, interfaces, unions, enums and input types only';
  const list = allowed.map((item) => `@${item}`).join(', ');
  if (SUPPORTED.includes(name) || (FEDERATION_2_ONLY.includes(name) && allowed.includes('shareable'))) {
    return `@${name} is not allowed on ${place} (allowed there: ${list})`;
  }
  if (FEDERATION_2_ONLY.includes(name)) {
    return `@${name} needs Federation 2: opt in with extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@${name}"])`;
  }
  return `@${name} is not a supported directive (allowed on ${place}: ${list})`;
}

/** Whether Autograph gives `name` a meaning of its own; a schema's definition of any other directive is ignored. */
export function isBuiltInDirective(name: string): boolean {
  return SUPPORTED.includes(name) || FEDERATION_2_ONLY.includes(name) || (ROOT_FIELD_DIRECTIVES as readonly string[]).includes(name);
}
