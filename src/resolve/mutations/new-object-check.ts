import { inputFields } from '../../api/fields.js';
import { ClientInputError } from '../../errors/codes.js';
import type { FieldModel, SchemaModel, TypeModel } from '../../sdl/model.js';

type Input = Record<string, unknown>;

/**
 * The checks every object a mutation creates passes, wherever it is created (a top-level add, a Ref
 * nested at any depth in an add or in an update's `set`, an upsert that finds nothing): objects.ts calls
 * this from the one place it builds a new object. The GraphQL input types check the top-level add's
 * fields already, but a Ref's fields are all optional, so a new object made from a Ref is checked here.
 * The rules and messages are Dgraph's (graphql/resolve/mutation_rewriter.go), in its order:
 * 1. an `@id` field given the empty string: "encountered an empty value for @id field `T.f`";
 * 2. no `@id` value given at all, where the type has a non-null `@id` field: "field f cannot be empty";
 * 3. a non-null field (not the `ID`, not one with an add default) without a value: "type T requires a
 *    value for field f, but no value present". The field on the other side of the edge the object is
 *    created through (`via`) is left out: that edge gives it its value.
 * Dgraph makes check 3 only for types with an `@id` field, and not for the `@secret` password; here it is
 * made for every type and the password too, so that no object is stored that a top-level add would refuse.
 * `values` is the input with the add defaults filled in (default-values.ts).
 */
export function checkNewObject(model: SchemaModel, type: TypeModel, values: Input, via?: FieldModel): void {
  const idFields = type.fields.filter((field) => field.isUniqueId && !field.isIdField);
  for (const field of idFields) {
    if (values[field.name] === '') throw new ClientInputError(`encountered an empty value for @id field \`${type.name}.${field.name}\``);
  }
  if (!idFields.some((field) => given(values[field.name]))) {
    const required = idFields.find((field) => field.nonNull);
    if (required) throw new ClientInputError(`field ${required.name} cannot be empty`);
  }
  const filledByEdge = via?.inverse?.field;
  for (const field of inputFields(model, type)) {
    if (!field.nonNull || field.isIdField || field.defaults?.add !== undefined || field.name === filledByEdge) continue;
    if (!given(values[field.name])) throw missingValue(type, field.name);
  }
  if (type.secret && !given(values[type.secret.name])) throw missingValue(type, type.secret.name);
}

function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function missingValue(type: TypeModel, field: string): ClientInputError {
  return new ClientInputError(`type ${type.name} requires a value for field ${field}, but no value present`);
}
