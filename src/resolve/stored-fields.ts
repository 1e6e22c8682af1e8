import { isKeptHere } from '../sdl/facts.js';
import type { SchemaModel, TypeModel } from '../sdl/model.js';
import { isFromCustomLogic } from './custom-objects.js';

/**
 * Resolvers for the scalar and enum fields stored under another name (`@dgraph(pred:)`): a stored
 * document holds the value under the stored name; an object custom logic answered holds it under the
 * field's name. A language preference reads the first of its stored paths holding a value. Other fields
 * keep GraphQL's default resolver (the value under the field's name).
 */
export function storedFieldResolvers(model: SchemaModel, type: TypeModel): Record<string, (object: Record<string, unknown>) => unknown> {
  const resolvers: Record<string, (object: Record<string, unknown>) => unknown> = {};
  for (const field of type.fields) {
    const preference = field.languagePreference;
    if (preference) {
      resolvers[field.name] = (object) => (isFromCustomLogic(object) ? object[field.name] : firstPresent(object, preference.paths));
      continue;
    }
    const storedName = field.storedName;
    if (storedName === undefined || field.of.kind === 'relation' || field.isIdField || !isKeptHere(model, type, field)) continue;
    resolvers[field.name] = (object) => (isFromCustomLogic(object) ? object[field.name] : object[storedName]);
  }
  return resolvers;
}

/** The value of the first of `paths` that `object` holds (not null), or null. */
function firstPresent(object: Record<string, unknown>, paths: readonly string[]): unknown {
  for (const path of paths) {
    const value = object[path];
    if (value !== null && value !== undefined) return value;
  }
  return null;
}
