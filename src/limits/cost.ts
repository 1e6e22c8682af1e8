import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

/**
 * The cost estimate: how many objects an operation may return. An object field counts 1, a list of
 * objects counts its size, and a field's selections are counted once per object it returns, so list
 * sizes multiply down the nesting. A list's size is its `first` argument (at most the maximum page size:
 * a larger one is refused when the list is read), else the default page size;
 * `_entities` (federation) counts its representations, and a list in an add mutation's payload counts at
 * most the objects of its `input` (it returns what the mutation wrote). Scalars count nothing (depth, aliases and the
 * answer budgets bound those), and so do introspection fields (bounded by the schema and graphql-js's
 * MaxIntrospectionDepthRule).
 *
 * Variables: with `variables` undefined (validation, cached per document) a size given by a variable
 * counts 0, so the estimate is a lower bound and `dependsOnVariables` says the exact figure needs them.
 */
export interface CostEstimate {
  cost: number;
  dependsOnVariables: boolean;
}

export interface CostInputs {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: (name: string) => FragmentDefinitionNode | null | undefined;
  defaultPageSize: number;
  /** A larger `first` is refused when the list is read, so it never counts more than this. */
  maxPageSize: number;
  /** The request's variables; undefined while they are not known. */
  variables?: Readonly<Record<string, unknown>>;
}

interface Walk extends CostInputs {
  defaults: Map<string, ValueNode>;
  dependsOnVariables: boolean;
  /** Per fragment: its cost per object of its type condition. */
  memo: Map<string, number>;
  visiting: Set<string>;
}

export function estimateCost(inputs: CostInputs): CostEstimate {
  const rootType = inputs.schema.getRootType(inputs.operation.operation);
  if (!rootType) return { cost: 0, dependsOnVariables: false };
  const walk: Walk = {
    ...inputs,
    defaults: new Map((inputs.operation.variableDefinitions ?? []).flatMap((definition) => (definition.defaultValue ? [[definition.variable.name.value, definition.defaultValue] as const] : []))),
    dependsOnVariables: false,
    memo: new Map(),
    visiting: new Set(),
  };
  const cost = selectionSetCost(walk, inputs.operation.selectionSet, rootType, inputs.operation.operation === 'mutation');
  return { cost, dependsOnVariables: walk.dependsOnVariables };
}

/**
 * Objects returned under one object of `parentType` by `selectionSet`. `payloadBound`: the most objects a
 * list directly in this selection set can hold (the selection set of an add mutation's payload).
 */
function selectionSetCost(walk: Walk, selectionSet: SelectionSetNode | undefined, parentType: GraphQLCompositeType, isMutationRoot = false, payloadBound?: number): number {
  if (!selectionSet) return 0;
  let total = 0;
  for (const selection of selectionSet.selections) {
    switch (selection.kind) {
      case Kind.FIELD:
        total += fieldCost(walk, selection, parentType, isMutationRoot, payloadBound);
        break;
      case Kind.INLINE_FRAGMENT:
        total += selectionSetCost(walk, selection.selectionSet, typeConditionOf(walk, selection.typeCondition?.name.value) ?? parentType);
        break;
      case Kind.FRAGMENT_SPREAD:
        total += fragmentCost(walk, selection.name.value);
        break;
    }
  }
  return total;
}

function fragmentCost(walk: Walk, name: string): number {
  const known = walk.memo.get(name);
  if (known !== undefined) return known;
  const fragment = walk.fragments(name);
  const type = fragment ? typeConditionOf(walk, fragment.typeCondition.name.value) : undefined;
  // A cycle or an unknown fragment: the spec rules report it.
  if (!fragment || !type || walk.visiting.has(name)) return 0;
  walk.visiting.add(name);
  const cost = selectionSetCost(walk, fragment.selectionSet, type);
  walk.visiting.delete(name);
  walk.memo.set(name, cost);
  return cost;
}

function typeConditionOf(walk: Walk, name: string | undefined): GraphQLCompositeType | undefined {
  const type = name === undefined ? undefined : walk.schema.getType(name);
  return type && isCompositeType(type) ? type : undefined;
}

function fieldCost(walk: Walk, node: FieldNode, parentType: GraphQLCompositeType, isMutationRoot: boolean, payloadBound: number | undefined): number {
  if (node.name.value.startsWith('__')) return 0;
  const definition = 'getFields' in parentType ? parentType.getFields()[node.name.value] : undefined;
  if (!definition) return 0;
  const returned = getNamedType(definition.type);
  if (!isCompositeType(returned)) return 0;
  const isList = isListType(getNullableType(definition.type));
  const size = isList ? listSize(walk, node, definition) : 1;
  const objects = isList && payloadBound !== undefined ? Math.min(size, payloadBound) : size;
  const childBound = isMutationRoot ? inputObjectCount(walk, node) : undefined;
  return objects === 0 ? 0 : objects * (1 + selectionSetCost(walk, node.selectionSet, returned, false, childBound));
}

/** The objects in a mutation's `input` list (nested ones included), or undefined when `input` is not a list. */
function inputObjectCount(walk: Walk, node: FieldNode): number | undefined {
  const argument = node.arguments?.find((candidate) => candidate.name.value === 'input');
  if (!argument) return undefined;
  const value = literalOrVariableValue(walk, argument.value);
  if (value === undefined) return 0;
  return Array.isArray(value) ? countObjects(value) : undefined;
}

/** Objects in a value (a literal's nodes or a variable's JSON), walked without recursion. */
function countObjects(value: unknown): number {
  let count = 0;
  if (typeof value !== 'object' || value === null) return 0;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const current = pending.pop()!;
    // One push per object or list inside: spreading a list of a million items into push() overflows the
    // stack. Own keys by `for...in`: no array of the values per object.
    if (Array.isArray(current)) {
      for (const item of current) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    count++;
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      const item: unknown = (current as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) pending.push(item);
    }
  }
  return count;
}

function listSize(walk: Walk, node: FieldNode, definition: GraphQLField<unknown, unknown>): number {
  if (definition.args.some((argument) => argument.name === 'first')) {
    const first = argumentValue(walk, node, 'first');
    if (first === undefined) return 0;
    return typeof first === 'number' && Number.isFinite(first) ? Math.min(Math.max(0, first), walk.maxPageSize) : walk.defaultPageSize;
  }
  if (definition.name === '_entities') {
    const representations = argumentValue(walk, node, 'representations');
    if (representations === undefined) return 0;
    return Array.isArray(representations) ? representations.length : 1;
  }
  return walk.defaultPageSize;
}

/**
 * The argument's value as far as sizes need it: a number, an array (only its length is read), null when
 * absent or not a number; undefined when it depends on variables that are not known yet.
 */
function argumentValue(walk: Walk, node: FieldNode, name: string): unknown {
  const argument = node.arguments?.find((candidate) => candidate.name.value === name);
  if (!argument) return null;
  return literalOrVariable(walk, argument.value);
}

/** A variable's value: as given, else its default read by `fromDefault`, else null; undefined while variables are unknown. */
function variableValue(walk: Walk, name: string, fromDefault: (value: ValueNode) => unknown): unknown {
  walk.dependsOnVariables = true;
  if (!walk.variables) return undefined;
  const given = walk.variables[name];
  if (given !== undefined) return given;
  const fallback = walk.defaults.get(name);
  return fallback ? fromDefault(fallback) : null;
}

/** A whole value, literal or from the variables, as JSON-like data; undefined while variables are unknown. */
function literalOrVariableValue(walk: Walk, value: ValueNode): unknown {
  switch (value.kind) {
    case Kind.VARIABLE:
      return variableValue(walk, value.name.value, (fallback) => literalOrVariableValue(walk, fallback));
    case Kind.LIST: {
      const items = value.values.map((item) => literalOrVariableValue(walk, item));
      return items.includes(undefined) ? undefined : items;
    }
    case Kind.OBJECT: {
      const fields = value.fields.map((field) => [field.name.value, literalOrVariableValue(walk, field.value)] as const);
      return fields.some(([, fieldValue]) => fieldValue === undefined) ? undefined : Object.fromEntries(fields);
    }
    default:
      return null;
  }
}

function literalOrVariable(walk: Walk, value: ValueNode): unknown {
  switch (value.kind) {
    case Kind.INT:
      return Number.parseInt(value.value, 10);
    case Kind.LIST:
      return value.values;
    case Kind.VARIABLE:
      return variableValue(walk, value.name.value, (fallback) => literalOrVariable(walk, fallback));
    default:
      return null;
  }
}
