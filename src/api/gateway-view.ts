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
 *   (`AstronautFilter`, `getAstronaut`, ...) with its own fields in them. Its queries stay local (the
 *   gateway reaches the type through `_entities`), and so do the generated types only they use
 *   (`AstronautAggregateResult`, and the filter and order when no mutation needs them). Its mutations
 *   `addT`, `updateT`, `deleteT` are exposed (the spec's rule, as Dgraph does), with the inputs and
 *   payloads they name: two subgraphs extending one entity compose when all but one switch them off with
 *   `@generate(mutation: { add: false, update: false, delete: false })`, as Dgraph's users do. A relation
 *   to an extended type prints without generated arguments and without its `<field>Aggregate`.
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

/**
 * The generated types of `type` that the gateway view leaves out; `exposesMutations` says whether the
 * type has at least one generated mutation (they are in the gateway view, and name its filter and order).
 */
export function localOnlyTypeNames(type: TypeModel, exposesMutations: boolean): string[] {
  if (!type.extended) return [];
  const T = type.name;
  const queryOnly = [names.aggregateResult(T)];
  if (exposesMutations) return queryOnly;
  return [...queryOnly, names.filter(T), names.hasFilter(T), names.orderable(T), names.order(T)];
}

/** Whether the queries generated for `type` stay out of the gateway view (its mutations never do). */
export function queriesAreLocalOnly(type: TypeModel): boolean {
  return type.extended;
}
