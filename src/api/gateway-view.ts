import { isCustomLogic } from '../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import { names } from './names.js';

/**
 * What the gateway's view (`_service { sdl }`) leaves out of the generated API so that it composes with
 * other subgraphs, Autograph ones included. This service's own `/graphql` keeps all of it.
 *
 * - A relation field of an entity owned here prints without its generated arguments. Another subgraph
 *   that extends the entity may declare the field `@external` (for `@requires` or `@provides`), and
 *   composition requires an `@external` declaration to repeat every argument of the field
 *   (`EXTERNAL_ARGUMENT_MISSING`): it cannot be asked to repeat `filter: ProductDimensionFilter`.
 * - An extended type is extended by any number of subgraphs, each generating the same names for it
 *   (`AstronautPatch`, `AstronautHasFilter`, `addAstronaut`, ...) with its own fields in them: input
 *   types merge only by their common fields and input enums by their common values, which can be none,
 *   and a root field defined twice is ambiguous. So its operations and generated types stay local (the
 *   gateway reaches it through `_entities`), except its Ref input, which other inputs of this service
 *   name and which always shares the key; a relation to it prints without generated arguments and
 *   without its `<field>Aggregate`.
 */

function isOwnedEntity(type: TypeModel): boolean {
  return type.keys.length > 0 && !type.extended;
}

function targetIsExtended(model: SchemaModel, field: FieldModel): boolean {
  return field.of.kind === 'relation' && model.types.get(field.of.target)?.extended === true;
}

/** Whether the gateway view prints the generated arguments of a stored relation field. */
export function gatewayKeepsRelationArguments(model: SchemaModel, parent: TypeModel, field: FieldModel): boolean {
  return !isCustomLogic(field) && !isOwnedEntity(parent) && !targetIsExtended(model, field);
}

/** Whether the gateway view prints `<field>Aggregate` of a stored list relation. */
export function gatewayKeepsRelationAggregate(model: SchemaModel, field: FieldModel): boolean {
  return !targetIsExtended(model, field);
}

/** The generated types of `type` that the gateway view leaves out. */
export function localOnlyTypeNames(type: TypeModel): string[] {
  if (!type.extended) return [];
  const T = type.name;
  return [
    names.filter(T), names.hasFilter(T), names.orderable(T), names.order(T), names.aggregateResult(T),
    names.addInput(T), names.patch(T), names.updateInput(T), names.addPayload(T), names.updatePayload(T), names.deletePayload(T),
  ];
}

/** Whether the operations generated for `type` (queries and mutations) stay out of the gateway view. */
export function operationsAreLocalOnly(type: TypeModel): boolean {
  return type.extended;
}
