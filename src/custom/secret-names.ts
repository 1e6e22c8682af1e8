/** The secret `<NAME>` of `@custom(http: { secretHeaders: ["Header:NAME"] })` comes from this environment variable prefix. */
export const CUSTOM_SECRET_ENV_PREFIX = 'CUSTOM_SECRET_';

/** The environment variable an operator sets to give the secret `name`: `CUSTOM_SECRET_<name>`. */
export function secretEnvVariable(name: string): string {
  return `${CUSTOM_SECRET_ENV_PREFIX}${name}`;
}
