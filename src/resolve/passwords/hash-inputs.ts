import { isKeptHere } from '../../sdl/facts.js';
import type { SchemaModel } from '../../sdl/model.js';
import type { RequestContext } from '../context.js';
import { HashedPassword } from '../mutations/hashed-password.js';
import { hashPassword, reservePasswordOperations } from './password-work.js';

type Input = Record<string, unknown>;

/**
 * Copies of mutation inputs of `typeName` (add inputs or an update's `set`) with every `@secret` password
 * they hold, nested objects included, replaced by its `HashedPassword`. The hashing is reserved against the
 * request's allowance before the first hash starts.
 */
export async function hashPasswordsIn(model: SchemaModel, context: RequestContext, typeName: string, inputs: Input[], what: string): Promise<Input[]> {
  if (!hasSecrets(model)) return inputs;
  const passwords: Array<{ holder: Input; name: string; password: string }> = [];
  const copies = inputs.map((input) => copyCollecting(model, typeName, input, passwords));
  reservePasswordOperations(context, passwords.length, what);
  for (const { holder, name, password } of passwords) holder[name] = new HashedPassword(await hashPassword(context, password));
  return copies;
}

function copyCollecting(model: SchemaModel, typeName: string, input: Input, passwords: Array<{ holder: Input; name: string; password: string }>): Input {
  const type = model.types.get(typeName);
  if (!type) return input;
  const copy: Input = { ...input };
  const secret = type.secret;
  if (secret && typeof copy[secret.name] === 'string') passwords.push({ holder: copy, name: secret.name, password: copy[secret.name] as string });
  for (const field of type.fields) {
    if (field.of.kind !== 'relation' || !isKeptHere(model, type, field)) continue;
    const value = copy[field.name];
    if (Array.isArray(value)) copy[field.name] = value.map((item) => (isObject(item) ? copyCollecting(model, field.namedType, item, passwords) : item));
    else if (isObject(value)) copy[field.name] = copyCollecting(model, field.namedType, value, passwords);
  }
  return copy;
}

const secretsByModel = new WeakMap<SchemaModel, boolean>();

function hasSecrets(model: SchemaModel): boolean {
  let has = secretsByModel.get(model);
  if (has === undefined) secretsByModel.set(model, (has = [...model.types.values()].some((type) => type.secret !== undefined)));
  return has;
}

function isObject(value: unknown): value is Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
