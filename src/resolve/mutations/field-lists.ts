import { isKeptHere } from '../../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../../sdl/model.js';

/**
 * The fields of a type that a mutation's input walks, listed once per type and model: an add of 100
 * objects asks for them 100 times, and testing every field of the type each time (its kind, where it is
 * kept) is what the lists save.
 */
type FieldList = (model: SchemaModel, type: TypeModel) => readonly FieldModel[];

function listedOncePerType(select: (model: SchemaModel, type: TypeModel, field: FieldModel) => boolean): FieldList {
  const lists = new WeakMap<TypeModel, { model: SchemaModel; fields: readonly FieldModel[] }>();
  return (model, type) => {
    const listed = lists.get(type);
    if (listed?.model === model) return listed.fields;
    const fields = type.fields.filter((field) => select(model, type, field));
    lists.set(type, { model, fields });
    return fields;
  };
}

/** The fields an input writes as they are: scalars and enums kept here, the ID field aside. */
export const valueFieldsOf: FieldList = listedOncePerType((model, type, field) => field.of.kind !== 'relation' && !field.isIdField && isKeptHere(model, type, field));

/** The relation fields kept here, whose Refs an input gives. */
export const relationFieldsOf: FieldList = listedOncePerType((model, type, field) => field.of.kind === 'relation' && isKeptHere(model, type, field));
