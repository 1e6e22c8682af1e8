import { names } from '../api/names.js';
import { storedPath } from '../query/schema-facts.js';
import { isCustomLogic, isKeptHere } from '../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';

/**
 * The stored fields that objects of `type` must carry to answer the selected field names, as an inclusion
 * projection for the store (`_id` always comes); undefined when the selection needs whole documents.
 *
 * A stored scalar or enum field reads its stored name; a relation stored on this side reads its edge (the
 * related ids), also for its `<relation>Aggregate`; a derived relation and the ID read nothing beyond
 * `_id`. Custom logic (its script may read any field of the parent), a field with `@requires`, a field
 * another service owns, or a name the type does not know need the whole document.
 */
export function storedProjection(model: SchemaModel, type: TypeModel, selected: readonly string[]): Record<string, 1> | undefined {
  const projection: Record<string, 1> = {};
  for (const name of selected) {
    if (name.startsWith('__')) continue;
    const field = type.fieldsByName.get(name) ?? aggregatedRelation(type, name);
    if (!field) return undefined;
    if (field.languagePreference) {
      for (const path of field.languagePreference.paths) projection[path] = 1;
      continue;
    }
    const path = pathRead(model, type, field);
    if (path === null) return undefined;
    if (path !== undefined) projection[path] = 1;
  }
  return projection;
}

/** The list relation whose `<relation>Aggregate` field `name` is. */
function aggregatedRelation(type: TypeModel, name: string): FieldModel | undefined {
  return type.fields.find((field) => field.of.kind === 'relation' && field.list && names.relationAggregate(field.name) === name);
}

/** The stored path `field` reads; undefined when it reads only `_id`; null when it needs the whole document. */
function pathRead(model: SchemaModel, type: TypeModel, field: FieldModel): string | undefined | null {
  if (isCustomLogic(field) || (field.requires?.length ?? 0) > 0 || !isKeptHere(model, type, field)) return null;
  if (field.isIdField) return undefined;
  if (field.of.kind === 'relation' && field.storedHere === false) return undefined;
  return storedPath(field);
}
