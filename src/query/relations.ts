import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import type { Filter, Pipeline, SortSpec, StoredDocument } from '../store/port.js';
import { aggregateOutputs, aggregateProjection, aggregateResultOf, aggregateRowOf, groupAccumulators, type AggregateOutput } from './aggregate.js';
import { allOf, isMatchAll, matchNothing } from './combine.js';
import { QueryArgumentError } from './errors.js';
import { compileFilter, planStages, stripTemporaryFields, type FilterPlan, type RelatedScope } from './filter.js';
import { compileOrder } from './order.js';
import { compilePage, type Page, type PageArgs, type PageLimits } from './pagination.js';
import { concreteTypesOf, inverseFieldOf, isDerivedRelation, isUnionTarget, storedPath, typeOf } from './schema-facts.js';
import { EXCLUDED, targetFilterOf } from './union-filter.js';
import { compareBySort } from './sort-compare.js';
import { nullsLastSort } from './nulls-last.js';

/**
 * Loading one relation level for many parents at once, so a request costs one store call per level (per
 * target collection), never one per parent. Which function to use:
 *
 * | relation field                | load with                                                    | store call per result               |
 * |-------------------------------|--------------------------------------------------------------|-------------------------------------|
 * | stored here, single or list   | `storedRelationQueries`, then `pagePerParent` for lists      | `find(plan.match, { sort })` (or `aggregate([...plan.lookups, {$match}, {$sort}])` when `plan.lookups` is not empty) |
 * | derived (`storedHere: false`) | `derivedRelationQuery`, then `findPerKey` with its `childPlan` (or `pageDerivedChildren` over a `find` of its `plan`); when it gives no query (interface target, filter with lookups): `derivedRelationPipeline`, then `readGroupedRelation` | `find(plan.match, { sort })`, or `aggregate(pipeline)` on `collection` |
 * | `<field>Aggregate(filter)`    | derived: `relationAggregatePipeline`, then `readRelationAggregates`; stored here: `storedAggregateQueries`, then `foldStoredAggregates` | `aggregate(pipeline)` on `collection`; stored: `find(plan.match, { projection })` per target collection |
 *
 * A relation to an interface reads every implementing type's collection: stored relations give one query
 * per collection, pipelines union them with `$unionWith`.
 */

export interface RelationArgs extends PageArgs {
  filter?: Record<string, unknown> | null;
  order?: Record<string, unknown> | null;
}

/** A filtered, ordered read of one collection. */
export interface CollectionQuery {
  collection: string;
  plan: FilterPlan;
  sort: SortSpec;
}

/** An aggregation pipeline and the collection to run it on. */
export interface CollectionPipeline {
  collection: string;
  pipeline: Pipeline;
}

interface Relation {
  parent: TypeModel;
  field: FieldModel;
  target: string;
}

export function relationOf(model: SchemaModel, parentTypeName: string, fieldName: string): Relation {
  const parent = typeOf(model, parentTypeName);
  const field = parent.fieldsByName.get(fieldName);
  if (!field || field.of.kind !== 'relation') throw new QueryArgumentError(`${parent.name}.${fieldName} is not a relation field`);
  return { parent, field, target: field.of.target };
}

function withConstraint(plan: FilterPlan, constraint: Filter): FilterPlan {
  // Without a filter of its own (most relation reads) the constraint is the whole match, as allOf would find.
  return { lookups: plan.lookups, match: isMatchAll(plan.match) ? constraint : allOf([constraint, plan.match]) };
}

/** The related ids a parent document holds under a stored relation field (a single id or an array). */
export function childIdsOf(field: FieldModel, parent: Record<string, unknown>): string[] {
  const value = parent[storedPath(field)];
  const ids = Array.isArray(value) ? value : [value];
  return ids.filter((id): id is string => typeof id === 'string');
}

/** For a stored list relation: each parent's `_id` → the child ids it holds, in stored order. */
export function childIdsByParent(field: FieldModel, parents: readonly StoredDocument[]): Map<string, string[]> {
  return new Map(parents.map((parent) => [parent._id, childIdsOf(field, parent)]));
}

/**
 * A relation stored on the parents' side: one query per target collection for the children of all
 * `parents` that match the field's `filter`, in the field's `order`. Single relations: each parent's child
 * is the result document whose `_id` the parent holds (none if the filter excluded it). Lists: slice per
 * parent with `pagePerParent`.
 */
export function storedRelationQueries(model: SchemaModel, parentTypeName: string, fieldName: string, parents: readonly Record<string, unknown>[], args: RelationArgs = {}, scope?: RelatedScope): CollectionQuery[] {
  const { field, target } = relationOf(model, parentTypeName, fieldName);
  if (isDerivedRelation(field)) throw new QueryArgumentError(`${parentTypeName}.${fieldName} is derived, load it with derivedRelationPipeline`);
  const ids = distinctChildIds(field, parents);
  // A union's objects share no field to order by (its fields take no `order`): they come in creation order.
  const sort: SortSpec = isUnionTarget(model, field) ? { _id: 1 } : compileOrder(model, target, args.order);
  // A loop rather than flatMap: this runs for every relation read, and flatMap cost more than the rest of it.
  const queries: CollectionQuery[] = [];
  for (const type of concreteTypesOf(model, target)) {
    const filter = targetFilterOf(model, target, type.name, args.filter);
    if (filter === EXCLUDED) continue;
    queries.push({ collection: type.name, plan: withConstraint(compileFilter(model, type.name, filter, scope), { _id: { $in: ids } }), sort });
  }
  return queries;
}

/** The child ids the parents hold, each once, in order of first appearance. */
function distinctChildIds(field: FieldModel, parents: readonly Record<string, unknown>[]): string[] {
  // One parent's single relation holds one id at most: nothing to repeat (a getT's relation, read alone).
  if (parents.length === 1 && !field.list) return childIdsOf(field, parents[0]!);
  const ids = new Set<string>();
  for (const parent of parents) for (const id of childIdsOf(field, parent)) ids.add(id);
  return [...ids];
}

/**
 * Each parent's page of a stored list relation: its children among `children` (the results of all of
 * `storedRelationQueries`' queries, in any order), ordered by `sort`, then `skip`/`limit` per parent.
 */
export function pagePerParent(childIds: ReadonlyMap<string, readonly string[]>, children: readonly StoredDocument[], sort: SortSpec, page: Page): Map<string, StoredDocument[]> {
  const sorted = [...children].sort((a, b) => compareBySort(a, b, sort));
  const rank = new Map(sorted.map((child, position) => [child._id, position]));
  const pages = new Map<string, StoredDocument[]>();
  for (const [parentId, ids] of childIds) {
    const positions = [...new Set(ids)].flatMap((id) => {
      const position = rank.get(id);
      return position === undefined ? [] : [position];
    });
    positions.sort((a, b) => a - b);
    pages.set(parentId, positions.slice(page.skip, page.skip + page.limit).map((position) => sorted[position]));
  }
  return pages;
}

/** Whether `sort` is the default order (by id), the order in which `cutToFirstChildren` can pick a page's children. */
export function isIdOrder(sort: SortSpec): boolean {
  const keys = Object.keys(sort);
  return keys.length === 1 && keys[0] === '_id' && sort._id === 1;
}

/**
 * A stored list relation read in the default order without a filter (nor a rule on the children): each
 * parent's page can only hold its first `skip + limit` distinct child ids in id order, provided they all
 * exist. The parents with their id lists cut to those, so that only they are read; a parent whose cut list
 * was not all found (an id naming no object) must be read again with its whole list.
 */
export function cutToFirstChildren<T extends Record<string, unknown>>(field: FieldModel, parents: readonly T[], page: Page): T[] {
  const path = storedPath(field);
  return parents.map((parent) => ({ ...parent, [path]: [...new Set(childIdsOf(field, parent))].sort().slice(0, page.skip + page.limit) }));
}

/** Runs `stagesFor` on each type's collection and unions the results into one stream (or none for no types). */
function unionOf(types: readonly TypeModel[], fallbackCollection: string, stagesFor: (type: TypeModel) => Pipeline, rest: Pipeline): CollectionPipeline {
  const [first, ...others] = types;
  if (!first) return { collection: fallbackCollection, pipeline: [{ $match: matchNothing() }] };
  const unions = others.map((type) => ({ $unionWith: { coll: type.name, pipeline: stagesFor(type) } }));
  return { collection: first.name, pipeline: [...stagesFor(first), ...unions, ...rest] };
}

const PARENT_FIELD = '__parent';

/**
 * Stages that, after the children were selected, give each child the parent id it belongs to under
 * `groupKey`: the inverse field itself when it holds one id; for a list inverse, one copy per listed
 * parent in `parentIds` (the stored list itself stays untouched in the document).
 */
function parentKeyStages(inverse: FieldModel, parentIds: readonly string[]): { stages: Pipeline; groupKey: string } {
  const path = storedPath(inverse);
  if (!inverse.list) return { stages: [], groupKey: `$${path}` };
  return {
    stages: [
      { $addFields: { [PARENT_FIELD]: `$${path}` } },
      { $unwind: `$${PARENT_FIELD}` },
      { $match: { [PARENT_FIELD]: { $in: [...parentIds] } } },
    ],
    groupKey: `$${PARENT_FIELD}`,
  };
}

function derivedSelection(model: SchemaModel, relation: Relation, parentIds: readonly string[], filter: Record<string, unknown> | null | undefined, scope?: RelatedScope) {
  const inverse = inverseFieldOf(model, relation.parent, relation.field);
  const ofParents: Filter = { [storedPath(inverse)]: { $in: [...parentIds] } };
  // With lookups, the parents' match goes first, on the inverse field's index, so the lookups run for
  // these parents' children only (MongoDB documents moving a $match before projections, not before $lookup).
  const stagesFor = (type: TypeModel): Pipeline => {
    const plan = compileFilter(model, type.name, filter, scope);
    return plan.lookups.length === 0 ? planStages(withConstraint(plan, ofParents)) : [{ $match: ofParents }, ...planStages(plan)];
  };
  return { inverse, stagesFor, targets: concreteTypesOf(model, relation.target) };
}

function sliceExpression(page: Page): unknown {
  return page.limit === 0 ? { $literal: [] } : { $slice: ['$items', page.skip, page.limit] };
}

/**
 * A derived relation (`storedHere: false`): one pipeline on the target collection(s) selecting children
 * whose inverse field holds one of `parentIds` and that match the field's filter, sorted by its order and
 * grouped per parent with its own offset/first. A single derived relation takes the first child.
 * Output rows: `{ _id: parentId, items: [child, ...] }` (parents without children have no row), each
 * child carrying `__typename` (its collection, which matters when the target is an interface); read
 * them with `readGroupedRelation`.
 */
export function derivedRelationPipeline(model: SchemaModel, parentTypeName: string, fieldName: string, parentIds: readonly string[], args: RelationArgs = {}, limits?: Partial<PageLimits>, scope?: RelatedScope): CollectionPipeline {
  const relation = relationOf(model, parentTypeName, fieldName);
  if (!isDerivedRelation(relation.field)) throw new QueryArgumentError(`${parentTypeName}.${fieldName} is stored on ${parentTypeName}, load it with storedRelationQueries`);
  const page = relation.field.list ? compilePage(args, limits) : { skip: 0, limit: 1 };
  const { inverse, stagesFor, targets } = derivedSelection(model, relation, parentIds, args.filter, scope);
  const { stages, groupKey } = parentKeyStages(inverse, parentIds);
  const typedStagesFor = (type: TypeModel): Pipeline => [...stagesFor(type), { $addFields: { __typename: type.name } }];
  return unionOf(targets, relation.target, typedStagesFor, [
    ...nullsLastSort(compileOrder(model, relation.target, relation.field.list ? args.order : undefined)).sortStages,
    ...stages,
    { $group: { _id: groupKey, items: { $push: '$$ROOT' } } },
    { $project: { items: sliceExpression(page) } },
  ]);
}

/** Rows of `derivedRelationPipeline` → each parent's children (temporary fields removed, `__typename` kept); [] for parents without any. */
export function readGroupedRelation(rows: readonly Record<string, unknown>[], parentIds: readonly string[]): Map<string, StoredDocument[]> {
  const byParent = new Map<string, StoredDocument[]>(parentIds.map((id) => [id, []]));
  for (const row of rows) {
    const items = Array.isArray(row.items) ? (row.items as StoredDocument[]) : [];
    byParent.set(String(row._id), items.map((item) => stripTemporaryFields(item)));
  }
  return byParent;
}

/** A derived relation loaded with a plain `find`: see `derivedRelationQuery`. */
export interface DerivedRelationQuery extends CollectionQuery {
  /** Stored path of the inverse field in the children: the parent's id, or a list of parent ids. */
  parentPath: string;
  /** `plan` without its "inverse field in `parentIds`" part: what each parent's children must match (for `findPerKey`). */
  childPlan: FilterPlan;
  /** Per parent: the field's offset/first for a list, the first child for a single relation. */
  page: Page;
}

/**
 * The cheaper way to load a derived relation whose target is one object type and whose filter needs no
 * other collection: one `find` (filter AND inverse field in `parentIds`, in the field's order) for the
 * children of all parents, paged per parent with `pageDerivedChildren`. It selects, orders and pages
 * exactly as `derivedRelationPipeline`, without the `$group` that makes the embedded store copy every
 * child. Undefined when the pipeline is needed (a target interface, or a filter with lookups).
 */
export function derivedRelationQuery(model: SchemaModel, parentTypeName: string, fieldName: string, parentIds: readonly string[], args: RelationArgs = {}, limits?: Partial<PageLimits>, scope?: RelatedScope): DerivedRelationQuery | undefined {
  const relation = relationOf(model, parentTypeName, fieldName);
  if (!isDerivedRelation(relation.field)) throw new QueryArgumentError(`${parentTypeName}.${fieldName} is stored on ${parentTypeName}, load it with storedRelationQueries`);
  const targets = concreteTypesOf(model, relation.target);
  if (targets.length !== 1 || targets[0]!.name !== relation.target) return undefined;
  const inverse = inverseFieldOf(model, relation.parent, relation.field);
  const childPlan = compileFilter(model, relation.target, args.filter, scope);
  const plan = withConstraint(childPlan, { [storedPath(inverse)]: { $in: [...parentIds] } });
  if (plan.lookups.length > 0) return undefined;
  return {
    collection: relation.target,
    plan,
    childPlan,
    sort: compileOrder(model, relation.target, relation.field.list ? args.order : undefined),
    parentPath: storedPath(inverse),
    page: relation.field.list ? compilePage(args, limits) : { skip: 0, limit: 1 },
  };
}

/** The results of a `derivedRelationQuery`, in its order → each parent's page of children ([] for parents without any). */
export function pageDerivedChildren(query: DerivedRelationQuery, children: readonly StoredDocument[], parentIds: readonly string[]): Map<string, StoredDocument[]> {
  const byParent = new Map<string, StoredDocument[]>(parentIds.map((id) => [id, []]));
  for (const child of children) {
    const held = child[query.parentPath];
    for (const parentId of new Set(Array.isArray(held) ? held : [held])) {
      if (typeof parentId === 'string') byParent.get(parentId)?.push(child);
    }
  }
  const { skip, limit } = query.page;
  for (const [parentId, all] of byParent) byParent.set(parentId, all.slice(skip, skip + limit));
  return byParent;
}

/**
 * Stages giving each selected child of a stored list relation the ids of the parents (among `parents`)
 * that hold it, one copy per parent under `__parent`. The parent → children links travel as a literal,
 * so the selection itself stays an indexed `_id $in` query.
 */
function storedParentKeyStages(field: FieldModel, parents: readonly Record<string, unknown>[]): Pipeline {
  const links = parents.map((parent) => ({ parent: String(parent._id), children: childIdsOf(field, parent) }));
  return [
    {
      $addFields: {
        [PARENT_FIELD]: {
          $map: {
            input: { $filter: { input: { $literal: links }, as: 'link', cond: { $in: ['$_id', '$$link.children'] } } },
            as: 'link',
            in: '$$link.parent',
          },
        },
      },
    },
    { $unwind: `$${PARENT_FIELD}` },
  ];
}

/**
 * `<field>Aggregate(filter)` for every parent in one pipeline on the target collection(s): the children
 * of all `parents` that match the filter, grouped per parent (one `$group`). `parents` are the parent
 * documents (`_id`, and for a relation stored on the parent side the field's id array).
 * Output rows: `{ _id: parentId, count, ... }`; read them with `readRelationAggregates`.
 */
export function relationAggregatePipeline(model: SchemaModel, parentTypeName: string, fieldName: string, parents: readonly Record<string, unknown>[], filter: Record<string, unknown> | null | undefined, requested: readonly string[], scope?: RelatedScope): CollectionPipeline {
  const relation = relationOf(model, parentTypeName, fieldName);
  if (!relation.field.list) throw new QueryArgumentError(`${parentTypeName}.${fieldName} is not a list, so it has no ${fieldName}Aggregate`);
  const outputs = aggregateOutputs(model, relation.target, requested);

  if (isDerivedRelation(relation.field)) {
    const parentIds = parents.map((parent) => String(parent._id));
    const { inverse, stagesFor, targets } = derivedSelection(model, relation, parentIds, filter, scope);
    const { stages, groupKey } = parentKeyStages(inverse, parentIds);
    return unionOf(targets, relation.target, stagesFor, [...stages, { $group: { _id: groupKey, ...groupAccumulators(outputs) } }]);
  }

  const childIds = [...new Set(parents.flatMap((parent) => childIdsOf(relation.field, parent)))];
  const stagesFor = (type: TypeModel): Pipeline => planStages(withConstraint(compileFilter(model, type.name, filter, scope), { _id: { $in: childIds } }));
  return unionOf(concreteTypesOf(model, relation.target), relation.target, stagesFor, [
    ...storedParentKeyStages(relation.field, parents),
    { $group: { _id: `$${PARENT_FIELD}`, ...groupAccumulators(outputs) } },
  ]);
}

/** Rows of `relationAggregatePipeline` → each parent's `TAggregateResult` (count 0 and nulls when nothing matched). */
export function readRelationAggregates(rows: readonly Record<string, unknown>[], parentIds: readonly string[], requested: readonly string[]): Map<string, Record<string, unknown>> {
  const rowsByParent = new Map(rows.map((row) => [String(row._id), row]));
  return new Map(parentIds.map((id) => [id, aggregateResultOf(rowsByParent.get(id), requested)]));
}

/** `<field>Aggregate` of a relation stored on the parents' side: the reads of the children and what to compute. */
export interface StoredAggregateQueries {
  /** One per target collection: the children of all parents that match the filter. */
  queries: CollectionQuery[];
  /** Only the fields the outputs read. */
  projection: Record<string, 1>;
  outputs: AggregateOutput[];
}

/**
 * `<field>Aggregate(filter)` of a list relation stored on the parents' side, for every parent: the
 * children are read once (by the ids the parents hold, projected to the aggregated fields) and folded
 * per parent with `foldStoredAggregates`. It gives what `relationAggregatePipeline` gives, without that
 * pipeline's per-child test against every parent's id list.
 */
export function storedAggregateQueries(model: SchemaModel, parentTypeName: string, fieldName: string, parents: readonly Record<string, unknown>[], filter: Record<string, unknown> | null | undefined, requested: readonly string[], scope?: RelatedScope): StoredAggregateQueries {
  const relation = relationOf(model, parentTypeName, fieldName);
  if (!relation.field.list) throw new QueryArgumentError(`${parentTypeName}.${fieldName} is not a list, so it has no ${fieldName}Aggregate`);
  const outputs = aggregateOutputs(model, relation.target, requested);
  const queries = storedRelationQueries(model, parentTypeName, fieldName, parents, { filter }, scope);
  return { queries, projection: aggregateProjection(outputs), outputs };
}

/**
 * The children read by `storedAggregateQueries` (in the order the store gave them) → each parent's
 * aggregate row, as `relationAggregatePipeline`'s rows (no row for a parent none of whose children matched);
 * read them with `readRelationAggregates`. A child listed twice by one parent counts once.
 */
export function foldStoredAggregates(field: FieldModel, parents: readonly Record<string, unknown>[], children: readonly StoredDocument[], outputs: readonly AggregateOutput[]): Record<string, unknown>[] {
  const parentsOfChild = new Map<string, string[]>();
  for (const parent of parents) {
    for (const childId of new Set(childIdsOf(field, parent))) {
      const holders = parentsOfChild.get(childId);
      if (holders) holders.push(String(parent._id));
      else parentsOfChild.set(childId, [String(parent._id)]);
    }
  }
  const childrenOfParent = new Map<string, StoredDocument[]>();
  for (const child of children) {
    for (const parentId of parentsOfChild.get(child._id) ?? []) {
      const held = childrenOfParent.get(parentId);
      if (held) held.push(child);
      else childrenOfParent.set(parentId, [child]);
    }
  }
  const rows: Record<string, unknown>[] = [];
  for (const [parentId, held] of childrenOfParent) rows.push({ _id: parentId, ...aggregateRowOf(outputs, held) });
  return rows;
}
