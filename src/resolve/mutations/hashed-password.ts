import type { TypeModel } from '../../sdl/model.js';

/**
 * A `@secret` password of a mutation input once resolve/passwords/ hashed it: the only form the mutation
 * code stores. A plain string reaching the store would be a password kept in clear, so it is refused.
 */
export class HashedPassword {
  constructor(readonly hash: string) {}
}

/** The `$set` and `$unset` entries for the type's secret in an add input or an update's `set`/`remove`. */
export function secretWrites(type: TypeModel, set: Record<string, unknown>, remove: Record<string, unknown> = {}): { set: Record<string, string>; unset: string[] } {
  const secret = type.secret;
  if (!secret) return { set: {}, unset: [] };
  const given = set[secret.name];
  if (given instanceof HashedPassword) return { set: { [secret.storedName]: given.hash }, unset: [] };
  if (given !== undefined && given !== null) throw new Error(`${type.name}.${secret.name} reached the store unhashed`);
  return { set: {}, unset: secret.name in remove ? [secret.storedName] : [] };
}
