import type { SchemaModel } from '../sdl/model.js';
import type { Filter } from '../store/port.js';
import { allOf, matchNothing } from './combine.js';
import { QueryArgumentError } from './errors.js';
import { compileFilter, type FilterPlan, type RelatedScope } from './filter.js';
import { allOfPlans } from './relation-filter.js';
import { isKeptHere, storedPath, typeOf } from './schema-facts.js';
import { relatedExists } from './semi-join.js';
import { EXCLUDED, targetFilterOf } from './union-filter.js';

/**
 * `@cascade` as a store condition: an object stays in the result only when each field its level requires
 * holds a value (a list: at least one item) and each required relation holds at least one related object
 * that passes the cascade of the level below, recursively. The whole condition is one FilterPlan on the
 * parents' collection (relations become semi-joins that stop at the first related object), so `first` and
 * `offset` count only the objects that stay, as in Dgraph.
 */

/** What an object of one concrete type must have to stay in a `@cascade` result. */
export interface CascadeCondition {
  /** Stored fields that are not relations and must hold a value. */
  present: string[];
  /** Relation selections that must hold at least one related object passing their own condition. */
  related: RelatedCascade[];
}

export interface RelatedCascade {
  field: string;
  /** The selection's `filter` argument: only related objects it selects count. */
  filter?: Record<string, unknown> | null;
  /** By concrete target type: what a related object must have (a type left out: any related object). */
  nested: Record<string, CascadeCondition>;
}

export const NO_CASCADE: Readonly<CascadeCondition> = Object.freeze({ present: [], related: [] });

/**
 * The plan selecting the objects of the concrete type `typeName` that meet `condition`. `scope` narrows
 * the related objects that count (the caller's query rules: a related object it may not see does not
 * keep its parent).
 */
export function compileCascade(model: SchemaModel, typeName: string, condition: CascadeCondition, scope?: RelatedScope): FilterPlan {
  const type = typeOf(model, typeName);
  const fieldOf = (name: string) => {
    const field = type.fieldsByName.get(name);
    if (!field) throw new QueryArgumentError(`@cascade: type ${type.name} has no field "${name}"`);
    return field;
  };
  const present: Filter[] = [];
  for (const name of condition.present) {
    const field = fieldOf(name);
    // The ID is every object's identity; fields this service does not store cannot be tested here.
    if (field.isIdField || !isKeptHere(model, type, field)) continue;
    if (field.of.kind === 'relation') throw new QueryArgumentError(`@cascade: ${type.name}.${name} is a relation; require it through its related objects`);
    const path = storedPath(field);
    present.push(field.list ? { [`${path}.0`]: { $exists: true } } : { [path]: { $ne: null } });
  }
  const plans: FilterPlan[] = [{ lookups: [], match: allOf(present) }];
  for (const related of condition.related) {
    const field = fieldOf(related.field);
    if (field.of.kind !== 'relation') throw new QueryArgumentError(`@cascade: ${type.name}.${related.field} is not a relation`);
    const relationTarget = field.of.target;
    plans.push(relatedExists(model, type, field, (target) => {
      const filter = targetFilterOf(model, relationTarget, target.name, related.filter);
      if (filter === EXCLUDED) return { lookups: [], match: matchNothing() };
      return allOfPlans([
        compileFilter(model, target.name, filter, scope),
        scope?.(target.name) ?? { lookups: [], match: {} },
        compileCascade(model, target.name, related.nested[target.name] ?? NO_CASCADE, scope),
      ]);
    }, '__cascade'));
  }
  return allOfPlans(plans);
}

/** Whether a condition requires nothing (every object stays). */
export function isEmptyCascade(condition: CascadeCondition): boolean {
  return condition.present.length === 0 && condition.related.length === 0;
}
