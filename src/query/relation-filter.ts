import { createHash } from 'node:crypto';
import type { SchemaModel } from '../sdl/model.js';
import type { Pipeline } from '../store/port.js';
import { allOf, anyOf, isMatchAll, noneOf } from './combine.js';
import { QueryArgumentError } from './errors.js';
import { compileFilter, type FilterPlan } from './filter.js';
import { concreteTypesOf, inverseFieldOf, isDerivedRelation, storedPath, typeOf } from './schema-facts.js';

/**
 * Semi-joins and plan combinators, for conditions that reach across a relation — an `@auth` rule such as
 * `queryTask { user(filter: { username: { eq: $USER } }) }` means "tasks whose user matches". The result
 * is a FilterPlan like any other, so it runs wherever a user's filter runs.
 */

function lookupsByName(plans: readonly FilterPlan[]): Pipeline {
  const byName = new Map<string, Record<string, unknown>>();
  plans.forEach((plan, planIndex) => plan.lookups.forEach((stage, stageIndex) => {
    const as = (stage.$lookup as { as?: unknown } | undefined)?.as;
    byName.set(typeof as === 'string' ? as : `${planIndex}:${stageIndex}`, stage);
  }));
  return [...byName.values()];
}

/** Every plan must match. Lookups with the same name compute the same field, so they run once. */
export function allOfPlans(plans: readonly FilterPlan[]): FilterPlan {
  return { lookups: lookupsByName(plans), match: allOf(plans.map((plan) => plan.match)) };
}

/** At least one plan must match; none given matches nothing. */
export function anyOfPlans(plans: readonly FilterPlan[]): FilterPlan {
  return { lookups: lookupsByName(plans), match: anyOf(plans.map((plan) => plan.match)) };
}

export function notPlan(plan: FilterPlan): FilterPlan {
  return { lookups: plan.lookups, match: noneOf(plan.match) };
}

/** Same relation and filter → same name, so repeated conditions share one lookup. */
function lookupName(fieldName: string, target: string, pipeline: Pipeline): string {
  const digest = createHash('sha1').update(`${target}:${JSON.stringify(pipeline)}`).digest('hex').slice(0, 12);
  return `__related_${fieldName}_${digest}`;
}

/**
 * Objects of `typeName` with at least one object under relation `fieldName` that matches `filter` (any
 * related object when the filter is empty). One `$lookup` per concrete target type, each stopping at the
 * first match. Works for relations stored on either side.
 */
export function compileRelationExists(model: SchemaModel, typeName: string, fieldName: string, filter: Record<string, unknown> | null | undefined): FilterPlan {
  const type = typeOf(model, typeName);
  const field = type.fieldsByName.get(fieldName);
  if (!field || field.of.kind !== 'relation') throw new QueryArgumentError(`${type.name}.${fieldName} is not a relation field`);
  const target = field.of.target;

  // An equality join on `_id` or the indexed stored field (MongoDB 5.0+ form), filtered by its pipeline.
  const [localField, foreignField] = isDerivedRelation(field)
    ? ['_id', storedPath(inverseFieldOf(model, type, field))]
    : [storedPath(field), '_id'];

  const names: string[] = [];
  const lookups: Pipeline = [];
  for (const concrete of concreteTypesOf(model, target)) {
    const plan = compileFilter(model, concrete.name, filter);
    const pipeline: Pipeline = [...plan.lookups];
    if (!isMatchAll(plan.match)) pipeline.push({ $match: plan.match });
    pipeline.push({ $limit: 1 }, { $project: { _id: 1 } });
    const as = lookupName(field.name, concrete.name, [{ $lookup: { localField, foreignField } }, ...pipeline]);
    names.push(as);
    lookups.push({ $lookup: { from: concrete.name, localField, foreignField, pipeline, as } });
  }
  // No concrete target: no lookups, and `anyOf([])` matches nothing.
  return { lookups, match: anyOf(names.map((as) => ({ [`${as}.0`]: { $exists: true } }))) };
}
