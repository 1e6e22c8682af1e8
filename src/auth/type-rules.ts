import { LRUCache } from 'lru-cache';
import type { FilterPlan } from '../query/filter.js';
import type { AuthRule, SchemaModel, TypeModel } from '../sdl/model.js';
import { allOfRulePlans, compileAuthRule, matchAllPlan, matchNothingPlan } from './compile-rule.js';
import { AuthRuleError } from './errors.js';
import type { AuthResult } from './token.js';

/** `password`: which objects `checkTPassword` may answer (`@secret` types, besides their query rule). */
export type AuthOperation = 'query' | 'add' | 'update' | 'delete' | 'password';

export const AUTH_OPERATIONS: readonly AuthOperation[] = ['query', 'add', 'update', 'delete', 'password'];

/**
 * Which objects of a concrete type a caller may act on, as a FilterPlan over that type's collection:
 * the type's own rule for the operation AND the rules of the interfaces it implements. No rule: every
 * object. `ClosedByDefault`: a type without any `@auth` is closed to anonymous callers (matches nothing).
 */
export function rulesFor(model: SchemaModel, type: TypeModel, operation: AuthOperation): AuthRule[] {
  const rules: AuthRule[] = [];
  const own = type.auth?.[operation];
  if (own) rules.push(own);
  for (const name of type.implements) {
    const inherited = model.types.get(name)?.auth?.[operation];
    if (inherited) rules.push(inherited);
  }
  return rules;
}

function hasAnyAuth(model: SchemaModel, type: TypeModel): boolean {
  return type.auth !== undefined || type.implements.some((name) => model.types.get(name)?.auth !== undefined);
}

/** Compiled plans per schema model, by type, operation and the caller's variables. */
const compiledPlans = new WeakMap<SchemaModel, LRUCache<string, FilterPlan>>();

function cacheOf(model: SchemaModel): LRUCache<string, FilterPlan> {
  let cache = compiledPlans.get(model);
  if (!cache) {
    cache = new LRUCache({ max: 5000 });
    compiledPlans.set(model, cache);
  }
  return cache;
}

/** Whether `operation` on `typeName` is unrestricted for this caller (no rule, not closed). */
export function isUnrestricted(model: SchemaModel, typeName: string, operation: AuthOperation, auth: AuthResult): boolean {
  const type = model.types.get(typeName);
  if (!type) return true;
  if (!hasAnyAuth(model, type)) return !(model.authorization?.closedByDefault && !auth.authenticated);
  return rulesFor(model, type, operation).length === 0;
}

/**
 * The plan restricting `operation` on the concrete type `typeName` for `auth`'s caller. Compiled once per
 * (type, operation, variables) and model; each call gets its own copy, so callers may extend it.
 */
export function authPlan(model: SchemaModel, typeName: string, operation: AuthOperation, auth: AuthResult): FilterPlan {
  const type = model.types.get(typeName);
  if (!type) throw new AuthRuleError(`unknown type ${typeName}`);
  if (!hasAnyAuth(model, type)) {
    return model.authorization?.closedByDefault && !auth.authenticated ? matchNothingPlan() : matchAllPlan();
  }
  const rules = rulesFor(model, type, operation);
  if (rules.length === 0) return matchAllPlan();
  const cache = cacheOf(model);
  const key = `${typeName}\u0000${operation}\u0000${JSON.stringify(auth.variables)}`;
  let plan = cache.get(key);
  if (!plan) {
    plan = allOfRulePlans(rules.map((rule) => compileAuthRule(model, typeName, rule, auth.variables)));
    cache.set(key, plan);
  }
  return structuredClone(plan);
}
