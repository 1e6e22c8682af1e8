import { Kind, print, type TypeNode } from 'graphql';
import type { AuthRule, SchemaError, SchemaModel } from '../sdl/model.js';
import { claimTypeProblem } from './claim-types.js';
import { compileAuthRule } from './compile-rule.js';
import { AuthRuleError } from './errors.js';
import { parseRule } from './rule-document.js';
import { AUTH_OPERATIONS } from './type-rules.js';

/**
 * Schema-time check of every `@auth` rule: each one is compiled for each concrete type it applies to,
 * with a stand-in value for every declared variable, so a rule that names an unknown field, queries the
 * wrong type or filters a field without @search is reported at upload instead of failing requests.
 */
export function checkAuthRules(model: SchemaModel): SchemaError[] {
  const errors: SchemaError[] = [];
  for (const type of model.types.values()) {
    if (!type.auth) continue;
    const concrete = type.kind === 'type'
      ? [type]
      : [...model.types.values()].filter((candidate) => candidate.kind === 'type' && candidate.implements.includes(type.name));
    for (const operation of AUTH_OPERATIONS) {
      const rule = type.auth[operation];
      if (!rule) continue;
      for (const target of concrete) {
        try {
          compileAuthRule(model, target.name, rule, standInVariables(rule));
        } catch (error) {
          if (!(error instanceof AuthRuleError)) throw error;
          const where = target === type ? type.name : `${type.name} (as implemented by ${target.name})`;
          errors.push({ message: `@auth ${operation} rule of ${where}: ${error.message}`, locations: [type.loc] });
        }
      }
    }
  }
  return errors;
}

function ruleTexts(rule: AuthRule): string[] {
  return [
    ...(rule.rule === undefined ? [] : [rule.rule]),
    ...(rule.and ?? []).flatMap(ruleTexts),
    ...(rule.or ?? []).flatMap(ruleTexts),
    ...(rule.not ? ruleTexts(rule.not) : []),
  ];
}

function standInFor(type: TypeNode): unknown {
  if (type.kind === Kind.NON_NULL_TYPE) return standInFor(type.type);
  if (type.kind === Kind.LIST_TYPE) return [standInFor(type.type)];
  switch (type.name.value) {
    case 'Int':
    case 'Int64':
    case 'Float':
      return 1;
    case 'Boolean':
      return true;
    case 'DateTime':
      return new Date(0).toISOString();
    default:
      // Also a regular expression, so a rule whose `regexp` filter takes the variable compiles.
      return '/x/';
  }
}

/**
 * A value for every variable the rule's queries declare, of its declared type. One claim stands for a
 * variable in every query of the rule, so the value must fit each declaration of it; when none can
 * (`$X: Int` here, `$X: String` there), every token with that claim would be refused: `AuthRuleError`.
 */
function standInVariables(rule: AuthRule): Record<string, unknown> {
  const declarations = new Map<string, TypeNode[]>();
  for (const text of ruleTexts(rule)) {
    let parsed;
    try {
      parsed = parseRule(text);
    } catch {
      continue; // compiling reports it
    }
    if (parsed.kind !== 'query') continue;
    for (const variable of parsed.variables) declarations.set(variable.name, [...(declarations.get(variable.name) ?? []), variable.type]);
  }
  const variables: Record<string, unknown> = {};
  for (const [name, types] of declarations) {
    const fitting = types.map(standInFor).find((candidate) => types.every((type) => claimTypeProblem(candidate, type) === undefined));
    if (fitting === undefined) throw new AuthRuleError(`$${name} is declared as ${types.map((type) => print(type)).join(' and as ')}, which no one claim can fit`);
    variables[name] = fitting;
  }
  return variables;
}
