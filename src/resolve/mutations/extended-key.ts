import { ClientInputError } from '../../errors/codes.js';
import type { TypeModel } from '../../sdl/model.js';

type Input = Record<string, unknown>;

/**
 * An extended type's key is the owner's id of the object, stored as its `_id`. Its Patch names the key
 * (as Dgraph's does), but an update may only give the value it already has: the owner alone renames.
 */
export function checkExtendedKeyKept(type: TypeModel, id: string, set: Input, remove: Input): void {
  const key = type.extended ? type.key : undefined;
  if (key === undefined || type.fieldsByName.get(key)?.isIdField) return;
  const where = `Update${type.name}Input`;
  if (key in set && set[key] !== null && String(set[key]) !== id) {
    throw new ClientInputError(`${where}.set.${key}: ${key} is the key of ${type.name}, owned by another service; it cannot change from ${JSON.stringify(id)} to ${JSON.stringify(set[key])}`);
  }
  if ((key in set && set[key] === null) || key in remove) {
    throw new ClientInputError(`${where}: ${key} is the key of ${type.name}, owned by another service; it cannot be removed`);
  }
}
