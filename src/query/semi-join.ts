import { createHash } from 'node:crypto';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import type { Filter, Pipeline } from '../store/port.js';
import { anyOf, isMatchAll } from './combine.js';
import type { FilterPlan } from './filter.js';
import { concreteTypesOf, inverseFieldOf, isDerivedRelation, storedPath } from './schema-facts.js';

/**
 * "A related object exists that matches": objects of `type` with at least one object under the relation
 * `field` that its target type's plan selects. Works for relations stored on either side and for
 * interface targets (one `$lookup` per concrete type). Used by `@auth` rules that select a relation and
 * by a `has` filter that may only count the related objects the caller can see.
 *
 * When the target's plan is a plain filter and the relation can only hold a few related objects (stored
 * on this side, or a single derived one), an equality `$lookup` fetches them by id and `$elemMatch` tests
 * them. Otherwise the equality `$lookup` carries a sub-pipeline (MongoDB 5.0+: `localField`/`foreignField`
 * with `pipeline`) that filters the related objects and stops at the first match. Either way the join is on
 * `_id` or on the indexed stored relation field, so both backends find the related objects by index
 * instead of scanning the target collection for each object (as a `let` + `$expr` sub-pipeline would). Lookup names start with `prefix`, then the field and a digest of what they compute,
 * so the same condition met twice is looked up once and different ones never share a name.
 */
export function relatedExists(model: SchemaModel, type: TypeModel, field: FieldModel, targetPlan: (target: TypeModel) => FilterPlan, prefix: string): FilterPlan {
  const targets = concreteTypesOf(model, (field.of as { target: string }).target);
  const derived = isDerivedRelation(field);
  const inverse = derived ? inverseFieldOf(model, type, field) : undefined;
  const lookupName = (target: string, shape: unknown): string => {
    const digest = createHash('sha1').update(`${target}:${JSON.stringify(shape)}`).digest('hex').slice(0, 12);
    return `${prefix}_${field.name}_${digest}`;
  };
  const matches: Filter[] = [];
  const lookups: Pipeline = [];
  for (const target of targets) {
    const plan = targetPlan(target);
    const [localField, foreignField] = inverse ? ['_id', storedPath(inverse)] : [storedPath(field), '_id'];
    if (plan.lookups.length === 0 && (!derived || !field.list)) {
      const as = lookupName(target.name, ['eq', plan.match]);
      matches.push(isMatchAll(plan.match) ? { [`${as}.0`]: { $exists: true } } : { [as]: { $elemMatch: plan.match } });
      lookups.push({ $lookup: { from: target.name, localField, foreignField, as } });
      continue;
    }
    const pipeline: Pipeline = [...plan.lookups];
    if (!isMatchAll(plan.match)) pipeline.push({ $match: plan.match });
    pipeline.push({ $limit: 1 }, { $project: { _id: 1 } });
    const as = lookupName(target.name, [localField, foreignField, pipeline]);
    matches.push({ [`${as}.0`]: { $exists: true } });
    lookups.push({ $lookup: { from: target.name, localField, foreignField, pipeline, as } });
  }
  // No concrete target: no lookups, and `anyOf([])` matches nothing.
  return { lookups, match: anyOf(matches) };
}
