import {
  GraphQLError, Kind, OperationTypeNode, parse, parseValue,
  type FieldNode, type SelectionSetNode, type TypeNode, type ValueNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { AuthRuleError } from './errors.js';

/**
 * The text of one `{ rule: "..." }`, parsed once and cached by text. Two shapes:
 * - a query rule, `query($USER: String!) { queryTask(filter: ...) { user(filter: ...) { __typename } } }`,
 *   selecting the objects the caller may act on;
 * - a role check on a claim alone, `{ $ROLE: { eq: "ADMIN" } }` (also `in: [...]`, `regexp: "/.../"`).
 */

/** One level of a query rule: the filter on this level and the fields it selects. */
export interface RuleSelection {
  filter?: ValueNode;
  /** Selected fields (except `__typename`), each with its own filter and selections. */
  fields: RuleField[];
}

export interface RuleField extends RuleSelection {
  name: string;
}

export interface QueryRule {
  kind: 'query';
  /** The top-level field, e.g. `queryTask`. */
  queryField: string;
  /** Declared variables, with their default values when given. */
  variables: Array<{ name: string; type: TypeNode; defaultValue?: ValueNode }>;
  root: RuleSelection;
}

export type RoleOperator = 'eq' | 'in' | 'regexp';

export interface RoleRule {
  kind: 'role';
  /** The claim name, without `$`. */
  claim: string;
  operator: RoleOperator;
  value: ValueNode;
}

export type ParsedRule = QueryRule | RoleRule;

const ROLE_RULE = /^\s*\{\s*\$([A-Za-z_][A-Za-z0-9_]*)\s*:([\s\S]*)\}\s*$/;
const ROLE_OPERATORS: readonly RoleOperator[] = ['eq', 'in', 'regexp'];

const parsedRules = new LRUCache<string, ParsedRule>({ max: 2000 });

/** Parses (or takes from the cache) a rule text; `AuthRuleError` says what is wrong with it. */
export function parseRule(text: string): ParsedRule {
  let parsed = parsedRules.get(text);
  if (!parsed) {
    parsed = ROLE_RULE.test(text) ? parseRoleRule(text) : parseQueryRule(text);
    parsedRules.set(text, parsed);
  }
  return parsed;
}

function parseRoleRule(text: string): RoleRule {
  const [, claim, rest] = ROLE_RULE.exec(text)!;
  let condition: ValueNode;
  try {
    condition = parseValue(rest);
  } catch (error) {
    throw new AuthRuleError(`role rule ${JSON.stringify(text)}: the condition is not a GraphQL value (${(error as Error).message})`);
  }
  if (condition.kind !== Kind.OBJECT || condition.fields.length !== 1) {
    throw new AuthRuleError(`role rule ${JSON.stringify(text)}: expected one condition like { eq: "ADMIN" } after $${claim}`);
  }
  const [only] = condition.fields;
  const operator = only.name.value as RoleOperator;
  if (!ROLE_OPERATORS.includes(operator)) {
    throw new AuthRuleError(`role rule ${JSON.stringify(text)}: unknown operator "${only.name.value}" (known: ${ROLE_OPERATORS.join(', ')})`);
  }
  return { kind: 'role', claim, operator, value: only.value };
}

function parseQueryRule(text: string): QueryRule {
  let document;
  try {
    document = parse(text, { noLocation: true });
  } catch (error) {
    const reason = error instanceof GraphQLError ? error.message : String(error);
    throw new AuthRuleError(`the rule is not a valid GraphQL query: ${reason}`);
  }
  const definitions = document.definitions;
  const [operation] = definitions;
  if (definitions.length !== 1 || operation.kind !== Kind.OPERATION_DEFINITION || operation.operation !== OperationTypeNode.QUERY) {
    throw new AuthRuleError('a rule must be exactly one query operation (no mutations, subscriptions or fragment definitions)');
  }
  const fields = fieldsOf(operation.selectionSet, 'the rule');
  if (fields.length !== 1) {
    throw new AuthRuleError(`a rule selects exactly one query field such as queryTask; found ${fields.length}`);
  }
  const [top] = fields;
  if (!top.name.startsWith('query')) {
    throw new AuthRuleError(`a rule must select a query<Type> field; found ${top.name}`);
  }
  return {
    kind: 'query',
    queryField: top.name,
    variables: (operation.variableDefinitions ?? []).map((definition) => ({
      name: definition.variable.name.value,
      type: definition.type,
      defaultValue: definition.defaultValue,
    })),
    root: { filter: top.filter, fields: top.fields },
  };
}

function fieldsOf(selectionSet: SelectionSetNode | undefined, where: string): RuleField[] {
  if (!selectionSet) return [];
  const fields: RuleField[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) {
      throw new AuthRuleError(`${where}: fragments are not supported in rules; select fields directly`);
    }
    if (selection.name.value === '__typename') continue;
    fields.push(ruleField(selection));
  }
  return fields;
}

function ruleField(node: FieldNode): RuleField {
  const name = node.name.value;
  let filter: ValueNode | undefined;
  for (const argument of node.arguments ?? []) {
    if (argument.name.value !== 'filter') {
      throw new AuthRuleError(`${name}: rules take only a filter argument, found "${argument.name.value}"`);
    }
    filter = argument.value;
  }
  return { name, filter, fields: fieldsOf(node.selectionSet, name) };
}
