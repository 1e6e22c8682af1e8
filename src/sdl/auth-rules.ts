import { GraphQLError, Kind, parse, type DirectiveNode, type ValueNode } from 'graphql';
import { describeValue, directiveArguments, listItemsOf, type Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';
import type { AuthRule, AuthRules } from './model.js';

const OPERATIONS = ['query', 'add', 'update', 'delete', 'password'] as const;
const RULE_KEYS = ['rule', 'and', 'or', 'not'] as const;

/** `@auth(query: {...}, add: {...}, update: {...}, delete: {...}, password: {...})` on a type, as `AuthRules`. */
export function authRulesOf(directive: DirectiveNode, errors: ErrorSink, describe: Describe): AuthRules {
  const rules: AuthRules = {};
  const args = directiveArguments(directive, { allowed: OPERATIONS }, errors, describe);
  if (args.size === 0) errors.at(describe(`@auth needs at least one of ${OPERATIONS.join(', ')}`), directive);
  for (const operation of OPERATIONS) {
    const argument = args.get(operation);
    if (!argument) continue;
    const rule = ruleOf(argument.value, errors, (message) => describe(`@auth ${operation}: ${message}`));
    if (rule) rules[operation] = rule;
  }
  return rules;
}

/** One rule: `{ rule: "..." }`, `{ and: [rules] }`, `{ or: [rules] }` or `{ not: rule }`. */
function ruleOf(value: ValueNode, errors: ErrorSink, describe: Describe): AuthRule | undefined {
  if (value.kind !== Kind.OBJECT) {
    errors.at(describe(`expected a rule object like { rule: "..." }, found ${describeValue(value)}`), value);
    return undefined;
  }
  const unknown = value.fields.filter((field) => !(RULE_KEYS as readonly string[]).includes(field.name.value));
  for (const field of unknown) {
    errors.at(describe(`unknown rule key "${field.name.value}" (known: ${RULE_KEYS.join(', ')})`), field);
  }
  const known = value.fields.filter((field) => (RULE_KEYS as readonly string[]).includes(field.name.value));
  if (known.length !== 1) {
    if (unknown.length === 0) {
      errors.at(describe(`a rule object holds exactly one of ${RULE_KEYS.join(', ')}; found ${known.length}`), value);
    }
    return undefined;
  }
  const [only] = known;
  const key = only.name.value;
  if (key === 'rule') return queryRuleOf(only.value, errors, describe);
  if (key === 'not') {
    const inner = ruleOf(only.value, errors, describe);
    return inner && { not: inner };
  }
  const items = listItemsOf(only.value);
  if (items.length === 0) {
    errors.at(describe(`"${key}" needs at least one rule`), only.value);
    return undefined;
  }
  const parts = items.map((item) => ruleOf(item, errors, describe));
  if (parts.some((part) => part === undefined)) return undefined;
  return key === 'and' ? { and: parts as AuthRule[] } : { or: parts as AuthRule[] };
}

/** Role rules (`{ $ROLE: { eq: "ADMIN" } }`) compare a claim and are not GraphQL; everything else is a query. */
const ROLE_RULE = /^\s*\{\s*\$/;

function queryRuleOf(value: ValueNode, errors: ErrorSink, describe: Describe): AuthRule | undefined {
  if (value.kind !== Kind.STRING) {
    errors.at(describe(`"rule" must be a string holding a GraphQL query, found ${describeValue(value)}`), value);
    return undefined;
  }
  const text = value.value;
  if (text.trim() === '') {
    errors.at(describe('"rule" is empty'), value);
    return undefined;
  }
  if (!ROLE_RULE.test(text)) {
    try {
      parse(text, { noLocation: true });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      errors.at(describe(`the rule is not a valid GraphQL query: ${error.message}`), value);
      return undefined;
    }
  }
  return { rule: text };
}
