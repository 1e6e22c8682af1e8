import {
  getArgumentValues, getDirectiveValues, getNamedType, GraphQLError, GraphQLIncludeDirective, GraphQLSkipDirective, isObjectType, Kind,
  type FieldNode, type GraphQLResolveInfo, type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import { compileCascade, isEmptyCascade, type CascadeCondition, type RelatedCascade } from '../query/cascade.js';
import type { FilterPlan } from '../query/filter.js';
import { allOfPlans } from '../query/relation-filter.js';
import { concreteTypesOf, isCustomLogic } from '../sdl/facts.js';
import type { SchemaModel, TypeModel } from '../sdl/model.js';
import type { TypeConstraint } from './authorize.js';

/**
 * `@cascade` on a query or relation field (Dgraph's query directive): read from the request and turned
 * into a condition per concrete type that the store query applies (query/cascade.ts). Without `fields:`
 * every selected field is required; with `fields:` only those listed. Either way the cascade trickles
 * down: a selection below a cascaded field is cascaded too (with the same list), unless it carries its own
 * `@cascade`.
 */

type CascadeMode = { all: true } | { all: false; fields: string[] };

/** The cascade the current field applies: the conditions per concrete type, as a constraint for restrictPlan. */
export interface FieldCascade {
  /** Identifies the conditions (part of a relation loader's key). */
  key: string;
  constraint: TypeConstraint;
}

/**
 * The cascade of the field being resolved, or undefined without one. `scope` narrows the related objects
 * that count (the caller's query rules).
 */
export function fieldCascade(model: SchemaModel, info: GraphQLResolveInfo, scope: TypeConstraint): FieldCascade | undefined {
  if (!mentionsCascade(info)) return undefined;
  // graphql-js hands every object of one level the same field node array (made per request), so the
  // cascade is worked out once per level, not once per parent object.
  let level = cascadeByLevel.get(info.fieldNodes);
  if (!level) {
    try {
      level = { cascade: levelCascade(model, info, scope) };
    } catch (error) {
      level = { error };
    }
    cascadeByLevel.set(info.fieldNodes, level);
  }
  if ('error' in level) throw level.error;
  return level.cascade;
}

/** Per operation (Apollo reuses parsed documents): whether it or a fragment it may spread carries `@cascade`. */
const cascadeInOperation = new WeakMap<OperationDefinitionNode, boolean>();

function mentionsCascade(info: GraphQLResolveInfo): boolean {
  let mentions = cascadeInOperation.get(info.operation);
  if (mentions === undefined) {
    mentions = hasCascade(info.operation.selectionSet) || Object.values(info.fragments).some((fragment) => hasCascade(fragment.selectionSet));
    cascadeInOperation.set(info.operation, mentions);
  }
  return mentions;
}

function hasCascade(set: SelectionSetNode): boolean {
  return set.selections.some((selection) =>
    (selection.directives ?? []).some((directive) => directive.name.value === 'cascade') ||
    (selection.kind !== Kind.FRAGMENT_SPREAD && selection.selectionSet !== undefined && hasCascade(selection.selectionSet)));
}

/** A level's cascade, or the client error its `fields:` gave (each object of the level answers that error). */
type LevelCascade = { cascade: FieldCascade | undefined } | { error: unknown };

const cascadeByLevel = new WeakMap<readonly FieldNode[], LevelCascade>();

function levelCascade(model: SchemaModel, info: GraphQLResolveInfo, scope: TypeConstraint): FieldCascade | undefined {
  const mode = ownMode(info, info.fieldNodes) ?? inheritedMode(info);
  if (!mode) return undefined;
  const levelType = getNamedType(info.returnType).name;
  if (!mode.all) checkListedFields(model, levelType, mode.fields, info.fieldNodes);
  const selections = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  const conditions: Record<string, CascadeCondition> = {};
  for (const type of concreteTypesOf(model, levelType)) {
    const condition = conditionFor(model, info, type, selections, mode);
    if (!isEmptyCascade(condition)) conditions[type.name] = condition;
  }
  if (Object.keys(conditions).length === 0) return undefined;
  const plans = new Map<string, FilterPlan>();
  return {
    key: JSON.stringify(conditions),
    constraint: (typeName) => {
      const condition = conditions[typeName];
      if (!condition) return undefined;
      let plan = plans.get(typeName);
      if (!plan) {
        plan = compileCascade(model, typeName, condition, scope);
        plans.set(typeName, plan);
      }
      return plan;
    },
  };
}

/** The caller's rules and a field's cascade together, per concrete type. */
export function withCascade(auth: TypeConstraint, cascade: FieldCascade | undefined): TypeConstraint {
  if (!cascade) return auth;
  return (typeName) => {
    const rule = auth(typeName);
    const condition = cascade.constraint(typeName);
    if (!rule) return condition;
    return condition ? allOfPlans([rule, condition]) : rule;
  };
}

/** The `@cascade` written on these nodes of one field (the first that has one). */
function ownMode(info: GraphQLResolveInfo, nodes: readonly FieldNode[]): CascadeMode | undefined {
  const directive = info.schema.getDirective('cascade');
  if (!directive) return undefined;
  for (const node of nodes) {
    const values = getDirectiveValues(directive, node, info.variableValues);
    if (!values) continue;
    const fields = values.fields as Array<string | null> | null | undefined;
    const listed = (fields ?? []).filter((name): name is string => typeof name === 'string');
    return listed.length === 0 ? { all: true } : { all: false, fields: listed };
  }
  return undefined;
}

/** The cascade an ancestor of the current field passes down: walks the response path from the operation's root. */
function inheritedMode(info: GraphQLResolveInfo): CascadeMode | undefined {
  const keys: string[] = [];
  for (let path = info.path.prev; path; path = path.prev) if (typeof path.key === 'string') keys.unshift(path.key);
  let selections: SelectionSetNode[] = [info.operation.selectionSet];
  let mode: CascadeMode | undefined;
  for (const [depth, key] of keys.entries()) {
    const nodes = selections.flatMap((set) => fieldNodesOf(info, set)).filter((node) => (node.alias?.value ?? node.name.value) === key);
    const own = ownMode(info, nodes);
    // A mutation's own `@cascade` (whose `fields:` name its payload's fields) puts a plain `@cascade` on
    // its payload's list, as Dgraph does (`QueryField` in graphql/schema/wrappers.go).
    if (own) mode = depth === 0 && info.operation.operation === 'mutation' ? { all: true } : own;
    selections = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  }
  return mode;
}

/** Which fragments' type conditions (`... on X`) hold for the objects of a level. */
type FragmentFilter = (typeCondition: string | undefined) => boolean;

const EVERY_FRAGMENT: FragmentFilter = () => true;

/** The fragments that apply to objects of the concrete `type`: on itself, an interface it implements, or a union it belongs to. */
function fragmentsFor(model: SchemaModel, type: TypeModel): FragmentFilter {
  return (condition) => condition === undefined || condition === type.name || type.implements.includes(condition)
    || model.unions?.get(condition)?.members.includes(type.name) === true;
}

/** The field nodes of a selection set, through the fragments that apply, @skip/@include honoured. */
function fieldNodesOf(info: GraphQLResolveInfo, set: SelectionSetNode, applies: FragmentFilter = EVERY_FRAGMENT): FieldNode[] {
  const nodes: FieldNode[] = [];
  for (const selection of set.selections) {
    if (!isIncluded(info, selection)) continue;
    if (selection.kind === Kind.FIELD) nodes.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (applies(selection.typeCondition?.name.value)) nodes.push(...fieldNodesOf(info, selection.selectionSet, applies));
    } else {
      const fragment = info.fragments[selection.name.value];
      if (fragment && applies(fragment.typeCondition.name.value)) nodes.push(...fieldNodesOf(info, fragment.selectionSet, applies));
    }
  }
  return nodes;
}

function isIncluded(info: GraphQLResolveInfo, node: Parameters<typeof getDirectiveValues>[1]): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, info.variableValues)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues)?.if !== false;
}

/**
 * `@cascade(fields:)` on a mutation may only name fields of its payload type (`numUids`, the list
 * field), as Dgraph's request validation has it (`directiveArgumentsCheck` in graphql/schema/validation_rules.go,
 * with its message); the mutation resolvers check it before they write anything.
 */
export function checkMutationCascade(info: GraphQLResolveInfo): void {
  const mode = ownMode(info, info.fieldNodes);
  const payload = getNamedType(info.returnType);
  if (!mode || mode.all || !isObjectType(payload)) return;
  const fields = payload.getFields();
  const missing = mode.fields.find((name) => !Object.hasOwn(fields, name));
  if (missing === undefined) return;
  throw new GraphQLError(`Field \`${missing}\` is not present in type \`${payload.name}\`. You can only use fields in cascade which are in type \`${payload.name}\``, {
    nodes: info.fieldNodes,
    extensions: { code: ErrorCode.BAD_USER_INPUT },
  });
}

/** `fields:` may only name fields of the cascaded type (Dgraph refuses the query otherwise). */
function checkListedFields(model: SchemaModel, typeName: string, fields: readonly string[], nodes: readonly FieldNode[]): void {
  const type = model.types.get(typeName);
  if (!type) return;
  for (const name of fields) {
    if (!type.fieldsByName.has(name)) {
      throw new GraphQLError(`@cascade(fields:) names "${name}", which type ${typeName} does not have (its fields: ${type.fields.map((field) => field.name).join(', ')})`, {
        nodes,
        extensions: { code: ErrorCode.BAD_USER_INPUT },
      });
    }
  }
}

/** What an object of the concrete `type` must have, given the selections at its level and the cascade mode. */
function conditionFor(model: SchemaModel, info: GraphQLResolveInfo, type: TypeModel, selections: readonly SelectionSetNode[], mode: CascadeMode): CascadeCondition {
  const nodes = selections.flatMap((set) => fieldNodesOf(info, set, fragmentsFor(model, type)));
  const required = (name: string): boolean => mode.all || mode.fields.includes(name);
  const present = new Set<string>();
  const related: RelatedCascade[] = [];
  const listedRelations = new Set(mode.all ? [] : mode.fields.filter((name) => type.fieldsByName.get(name)?.of.kind === 'relation'));
  for (const node of nodes) {
    const field = type.fieldsByName.get(node.name.value);
    // Generated fields (`xAggregate`, `__typename`) and computed ones are not stored: nothing to require.
    if (!field || isCustomLogic(field) || !required(field.name)) continue;
    if (field.of.kind !== 'relation') {
      present.add(field.name);
      continue;
    }
    listedRelations.delete(field.name);
    related.push(relatedCondition(model, info, type, field.name, node, ownMode(info, [node]) ?? mode));
  }
  for (const name of mode.all ? [] : mode.fields) {
    const field = type.fieldsByName.get(name);
    if (field && field.of.kind !== 'relation' && !isCustomLogic(field)) present.add(name);
  }
  // A listed relation the query does not select: any related object keeps the parent.
  for (const name of listedRelations) related.push({ field: name, nested: {} });
  return { present: [...present], related };
}

function relatedCondition(model: SchemaModel, info: GraphQLResolveInfo, type: TypeModel, fieldName: string, node: FieldNode, mode: CascadeMode): RelatedCascade {
  const schemaType = info.schema.getType(type.name);
  const definition = isObjectType(schemaType) ? schemaType.getFields()[fieldName] : undefined;
  const args = definition ? getArgumentValues(definition, node, info.variableValues) : {};
  const field = type.fieldsByName.get(fieldName)!;
  const nested: Record<string, CascadeCondition> = {};
  if (node.selectionSet && field.of.kind === 'relation') {
    for (const target of concreteTypesOf(model, field.of.target)) {
      const condition = conditionFor(model, info, target, [node.selectionSet], mode);
      if (!isEmptyCascade(condition)) nested[target.name] = condition;
    }
  }
  const filter = args.filter as Record<string, unknown> | null | undefined;
  return filter ? { field: fieldName, filter, nested } : { field: fieldName, nested };
}
