import type { ValueNode } from 'graphql';
import { isMatchAll, matchNothing, noneOf } from '../query/combine.js';
import { QueryArgumentError, compileFilter, type FilterPlan } from '../query/filter.js';
import { allOfPlans, anyOfPlans } from '../query/relation-filter.js';
import { isKeptHere, storedPath } from '../query/schema-facts.js';
import { relatedExists } from '../query/semi-join.js';
import type { AuthRule, FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import type { Filter } from '../store/port.js';
import { claimTypeProblem } from './claim-types.js';
import { AuthenticationError, AuthRuleError } from './errors.js';
import { evaluateRoleRule } from './role-rule.js';
import { parseRule, type QueryRule, type RuleSelection } from './rule-document.js';
import { substitute } from './rule-values.js';

/**
 * An `@auth` rule → a FilterPlan over one concrete type's collection, for the caller's claims. The
 * plan selects the objects the rule allows; it runs in the store together with the request's own filter,
 * so a rule never runs per object in JavaScript.
 *
 * A query rule reads like Dgraph evaluates it (with cascade): the object matches the top-level filter,
 * every selected relation has a related object that matches that field's filter and selections (a
 * semi-join), and every selected scalar field has a value. A rule whose variable the claims lack
 * matches nothing. A role rule matches everything or nothing, from the claims alone.
 */

export const matchAllPlan = (): FilterPlan => ({ lookups: [], match: {} });
export const matchNothingPlan = (): FilterPlan => ({ lookups: [], match: matchNothing() });

const NOTHING_KEY = JSON.stringify(matchNothing());

/** Whether a plan is the literal "nothing" (so `not` of it can be "everything"). */
export function isMatchNothingPlan(plan: FilterPlan): boolean {
  return plan.lookups.length === 0 && JSON.stringify(plan.match) === NOTHING_KEY;
}

/** Every plan; one that matches nothing makes the whole match nothing (and drops the others' lookups). */
export function allOfRulePlans(plans: readonly FilterPlan[]): FilterPlan {
  return plans.some(isMatchNothingPlan) ? matchNothingPlan() : allOfPlans(plans);
}

/** Any plan; those that match nothing drop out. */
export function anyOfRulePlans(plans: readonly FilterPlan[]): FilterPlan {
  const possible = plans.filter((plan) => !isMatchNothingPlan(plan));
  return possible.length === 0 ? matchNothingPlan() : anyOfPlans(possible);
}

export function compileAuthRule(model: SchemaModel, typeName: string, rule: AuthRule, variables: Readonly<Record<string, unknown>>): FilterPlan {
  const type = model.types.get(typeName);
  if (!type) throw new AuthRuleError(`unknown type ${typeName}`);
  if (rule.and) return allOfRulePlans(rule.and.map((part) => compileAuthRule(model, typeName, part, variables)));
  if (rule.or) return anyOfRulePlans(rule.or.map((part) => compileAuthRule(model, typeName, part, variables)));
  if (rule.not) {
    const inner = compileAuthRule(model, typeName, rule.not, variables);
    if (isMatchAll(inner.match) && inner.lookups.length === 0) return matchNothingPlan();
    if (isMatchNothingPlan(inner)) return matchAllPlan();
    return { lookups: inner.lookups, match: noneOf(inner.match) };
  }
  if (rule.rule === undefined) throw new AuthRuleError(`${typeName}: an @auth rule needs one of rule, and, or, not`);
  const parsed = parseRule(rule.rule);
  if (parsed.kind === 'role') return evaluateRoleRule(parsed, variables) ? matchAllPlan() : matchNothingPlan();
  return compileQueryRule(model, type, parsed, variables);
}

/** The rule must query the type itself or an interface it implements (whose fields it stores). */
function checkQueriedType(model: SchemaModel, type: TypeModel, rule: QueryRule): void {
  const queried = rule.queryField.slice('query'.length);
  const allowed = [type.name, ...type.implements];
  if (!allowed.includes(queried) || !model.types.has(queried)) {
    const expected = allowed.map((name) => `query${name}`).join(' or ');
    throw new AuthRuleError(`the @auth rule for ${type.name} must select ${expected}; found ${rule.queryField}`);
  }
}

interface Compilation {
  model: SchemaModel;
  variables: Readonly<Record<string, unknown>>;
  defaults: ReadonlyMap<string, ValueNode>;
}

class MissingClaim extends Error {}

function compileQueryRule(model: SchemaModel, type: TypeModel, rule: QueryRule, variables: Readonly<Record<string, unknown>>): FilterPlan {
  checkQueriedType(model, type, rule);
  checkClaimTypes(model, type, rule, variables);
  const defaults = new Map(rule.variables.flatMap((variable) => (variable.defaultValue ? [[variable.name, variable.defaultValue] as const] : [])));
  try {
    return selectionPlan({ model, variables, defaults }, type, rule.root, rule.queryField);
  } catch (error) {
    if (error instanceof MissingClaim) return matchNothingPlan();
    if (error instanceof QueryArgumentError) throw new AuthRuleError(`the @auth rule for ${type.name}: ${error.message}`);
    throw error;
  }
}

/**
 * A claim whose type differs from the variable the rule declares would make the rule's filter invalid:
 * the token is at fault (it passed verification, but this service cannot use it), so the request is
 * refused as unauthenticated (HTTP 401), naming the claim, its value and the declared type.
 */
function checkClaimTypes(model: SchemaModel, type: TypeModel, rule: QueryRule, variables: Readonly<Record<string, unknown>>): void {
  for (const variable of rule.variables) {
    const problem = claimTypeProblem(variables[variable.name], variable.type);
    if (problem !== undefined) {
      throw new AuthenticationError(`claim ${variable.name} is ${problem} by the @auth rule of ${type.name}`, model.authorization?.header ?? 'of the token');
    }
  }
}

function filterValue(compilation: Compilation, node: ValueNode | undefined): Record<string, unknown> | undefined {
  if (!node) return undefined;
  const result = substitute(node, compilation.variables, compilation.defaults);
  if (!result.ok) throw new MissingClaim(result.missing);
  return (result.value ?? undefined) as Record<string, unknown> | undefined;
}

/** One level of the rule on `type`'s collection: its filter, its relations as semi-joins, its scalars present. */
function selectionPlan(compilation: Compilation, type: TypeModel, selection: RuleSelection, where: string): FilterPlan {
  const parts: FilterPlan[] = [compileFilter(compilation.model, type.name, filterValue(compilation, selection.filter))];
  for (const selected of selection.fields) {
    const field = type.fieldsByName.get(selected.name);
    if (!field) throw new AuthRuleError(`${where}: type ${type.name} has no field "${selected.name}"`);
    if (field.of.kind === 'relation') {
      parts.push(relatedObjectExists(compilation, type, field, selected));
    } else {
      if (selected.filter) throw new AuthRuleError(`${where}: ${type.name}.${field.name} is not a relation, so it takes no filter`);
      parts.push({ lookups: [], match: presence(compilation.model, type, field) });
    }
  }
  return allOfPlans(parts);
}

/** Cascade: a selected scalar must have a value (the ID always has one; values kept elsewhere are not checked). */
function presence(model: SchemaModel, type: TypeModel, field: FieldModel): Filter {
  if (field.isIdField || !isKeptHere(model, type, field)) return {};
  return field.list ? { [`${storedPath(field)}.0`]: { $exists: true } } : { [storedPath(field)]: { $exists: true, $ne: null } };
}

/** "A related object exists that matches" the selection on the related type (a semi-join). */
function relatedObjectExists(compilation: Compilation, type: TypeModel, field: FieldModel, selection: RuleSelection): FilterPlan {
  return relatedExists(compilation.model, type, field, (target) => selectionPlan(compilation, target, selection, `${type.name}.${field.name}`), '__auth');
}
