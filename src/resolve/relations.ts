import DataLoader from 'dataloader';
import { ID_BATCH_SIZE } from '../store/id-batches.js';
import { holdersByChildIds } from './child-id-batches.js';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { isCustomLogic } from '../sdl/facts.js';
import { names } from '../api/names.js';
import { compilePage } from '../query/pagination.js';
import {
  childIdsByParent, childIdsOf, cutToFirstChildren, derivedRelationPipeline, derivedRelationQuery, foldStoredAggregates,
  isIdOrder, pageDerivedChildren, pagePerParent, readGroupedRelation, readRelationAggregates, relationAggregatePipeline,
  storedAggregateQueries, storedRelationQueries, type DerivedRelationQuery, type RelationArgs,
} from '../query/relations.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import { planStages, type FilterPlan } from '../query/filter.js';
import type { Collection, Filter, Store, StoredDocument } from '../store/port.js';
import { loaderFor, type RequestContext } from './context.js';
import { answeredRelationOf, withStoredEdges, withStoredFields } from './custom-objects.js';
import { authConstraints, restrictPipeline, restrictPlan, type TypeConstraint } from './authorize.js';
import { runPlan, tag, type GraphObject } from './read.js';
import { fieldCascade, withCascade, type FieldCascade } from './cascade.js';
import { selectedFieldNames } from './selections.js';
import { storeOf } from './model-store.js';
import { storedPath } from '../query/schema-facts.js';
import { storedProjection } from './stored-projection.js';

/**
 * Relation fields load one level at a time: all parents at a level ask one DataLoader, which makes one
 * store call (per target collection) for all of them, or one per ID_BATCH_SIZE parents (or child ids) so
 * that no command outgrows MongoDB's limit. A query's store round trips are therefore bounded
 * by its depth, never by how many objects it returns.
 */

function loaderKey(kind: string, type: TypeModel, field: FieldModel, args: unknown): string {
  return `${kind}:${type.name}.${field.name}:${JSON.stringify(args)}`;
}

function isEmpty(args: object): boolean {
  for (const _name in args) return false;
  return true;
}

/**
 * The parents hold the child ids: one `$in` read of the children for the whole level. A list in the
 * default order without a filter or rule reads only each parent's first `offset + first` ids (and, only
 * when one of those names no object, that parent's whole list in a second read).
 */
function storedRelation(model: SchemaModel, type: TypeModel, field: FieldModel) {
  // Made once: most relation fields are read without arguments, once per parent object.
  const unargumentedKey = loaderKey('stored', type, field, { args: {} });
  return async (parent: GraphObject, args: RelationArgs, context: RequestContext, info: GraphQLResolveInfo) => {
    const answered = answeredRelationOf(parent, field);
    if (answered) return withStoredFields(context, model, answered.value, new Set(selectedFieldNames(info)));
    const auth = authConstraints(context, model, 'query');
    const cascade = fieldCascade(model, info, auth);
    const key = cascade === undefined && isEmpty(args) ? unargumentedKey : loaderKey('stored', type, field, { args, cascade: cascade?.key });
    const loader = loaderFor(context, key, () => new DataLoader<GraphObject, GraphObject[], string>(async (given) => {
      const parents = await withStoredEdges(context, model, type, field, given);
      // No parent holds a child id (e.g. objects a lambda answered without IDs): nothing to read.
      if (parents.every((one) => childIdsOf(field, one).length === 0)) return parents.map(() => []);
      const restrict = withCascade(auth, cascade);
      const queries = storedRelationQueries(model, type.name, field.name, parents, args, auth);
      const readBatch = async (holders: readonly GraphObject[]): Promise<GraphObject[]> => {
        const reads = holders === parents ? queries : storedRelationQueries(model, type.name, field.name, holders, args, auth);
        const pages = await Promise.all(reads.map(async (query) =>
          tag(await runPlan(storeOf(context, model).collection(query.collection), restrictPlan(query.plan, restrict(query.collection)), query.sort, 0, undefined), query.collection)));
        // One target collection (every relation but one to an interface or a union): its page as it is.
        return pages.length === 1 ? pages[0]! : pages.flat();
      };
      const readChildren = async (holders: readonly GraphObject[]): Promise<GraphObject[]> => {
        const batches = holdersByChildIds(field, holders);
        if (batches.length === 1 && batches[0]!.length === holders.length) return await readBatch(holders);
        const children: GraphObject[] = [];
        for (const batch of batches) children.push(...await readBatch(batch));
        return children;
      };
      if (!field.list) {
        const byId = new Map((await readChildren(parents)).map((child) => [child._id, child]));
        return parents.map((one) => {
          const child = byId.get(String(one[storedPath(field)]));
          return child ? [child] : [];
        });
      }
      const sort = queries[0]?.sort ?? { _id: 1 };
      const page = compilePage(args);
      const unfiltered = !args.filter || Object.keys(args.filter).length === 0;
      const cut = unfiltered && isIdOrder(sort) && queries.every((query) => restrict(query.collection) === undefined);
      const holders = cut ? cutToFirstChildren(field, parents, page) : parents;
      const children = await readChildren(holders);
      const pages = pagePerParent(childIdsByParent(field, holders), children, sort, page);
      if (cut) {
        const found = new Set(children.map((child) => child._id));
        const short = parents.filter((_, i) => childIdsOf(field, holders[i]!).some((id) => !found.has(id)));
        if (short.length > 0) {
          for (const [id, again] of pagePerParent(childIdsByParent(field, short), await readChildren(short), sort, page)) pages.set(id, again);
        }
      }
      return parents.map((one) => (pages.get(one._id) ?? []) as GraphObject[]);
    }, { cacheKeyFn: (one) => one._id, maxBatchSize: ID_BATCH_SIZE }));
    const children = await loader.load(parent);
    return field.list ? children : children[0] ?? null;
  };
}

/**
 * Each parent's page of a derived relation, read per parent (`findPerKey`): no more children than the
 * pages hold, each with only the stored fields of `projection` when one is given.
 */
async function pagesPerParent(store: Store, query: DerivedRelationQuery, childFilter: Filter, parentIds: readonly string[], projection: Record<string, 1> | undefined): Promise<Map<string, StoredDocument[]>> {
  // `first: 0` asks for nothing; the store would read a limit of 0 as "no limit".
  if (query.page.limit === 0) return new Map();
  return store.collection(query.collection).findPerKey(query.parentPath, parentIds, childFilter, { sort: query.sort, skip: query.page.skip, limit: query.page.limit, projection });
}

/** What every parent at one level of a derived relation shares: its loader's key and its children's projection. */
interface DerivedLevel {
  field: FieldModel;
  key: string;
  /** The stored fields the selection under the relation reads from the children; undefined: whole documents. */
  projection: Record<string, 1> | undefined;
}

/**
 * graphql-js hands every object of one level the same field node array (made per request), so the level's
 * key and projection are worked out once, not once per parent (a hundred parents, a hundred selections walked).
 */
const derivedLevels = new WeakMap<readonly FieldNode[], DerivedLevel>();

function derivedLevelOf(model: SchemaModel, type: TypeModel, field: FieldModel, args: RelationArgs, cascade: FieldCascade | undefined, info: GraphQLResolveInfo): DerivedLevel {
  let level = derivedLevels.get(info.fieldNodes);
  if (level?.field !== field) {
    const target = model.types.get(field.namedType);
    const projection = target?.kind === 'type' ? storedProjection(model, target, selectedFieldNames(info)) : undefined;
    level = { field, key: loaderKey('derived', type, field, { args, cascade: cascade?.key, projection }), projection };
    derivedLevels.set(info.fieldNodes, level);
  }
  return level;
}

/**
 * The partner type stores the edge: one read for the children of all parents. When the target is one
 * object type and the filter (with the auth rule) needs no other collection, `findPerKey` reads each
 * parent's page; with a rule that needs a lookup, a `find` paged per parent here; for an interface
 * target or a filter with lookups, a grouped pipeline.
 */
function derivedRelation(model: SchemaModel, type: TypeModel, field: FieldModel) {
  return async (parent: GraphObject, args: RelationArgs, context: RequestContext, info: GraphQLResolveInfo) => {
    const answered = answeredRelationOf(parent, field);
    if (answered) return withStoredFields(context, model, answered.value, new Set(selectedFieldNames(info)));
    const auth = authConstraints(context, model, 'query');
    const cascade = fieldCascade(model, info, auth);
    const { key, projection } = derivedLevelOf(model, type, field, args, cascade, info);
    const loader = loaderFor(context, key, () => new DataLoader<string, GraphObject[]>(async (parentIds) => {
      const restrict = withCascade(auth, cascade);
      const query = derivedRelationQuery(model, type.name, field.name, parentIds, args, undefined, auth);
      if (query) {
        const childPlan = restrictPlan(query.childPlan, restrict(query.collection));
        if (childPlan.lookups.length === 0) {
          const pages = await pagesPerParent(storeOf(context, model), query, childPlan.match, parentIds, projection);
          return parentIds.map((id) => tag(pages.get(id) ?? [], field.namedType));
        }
        const children = await runPlan(storeOf(context, model).collection(query.collection), restrictPlan(query.plan, restrict(query.collection)), query.sort, 0, undefined);
        const pages = pageDerivedChildren(query, children, parentIds);
        return parentIds.map((id) => tag(pages.get(id) ?? [], field.namedType));
      }
      const { collection, pipeline } = derivedRelationPipeline(model, type.name, field.name, parentIds, args, undefined, auth);
      const grouped = readGroupedRelation(await storeOf(context, model).collection(collection).aggregate(restrictPipeline(collection, pipeline, restrict)), parentIds);
      // The pipeline tags each child with its concrete type (the target may be an interface).
      return parentIds.map((id) => (grouped.get(id) ?? []) as GraphObject[]);
    }, { maxBatchSize: ID_BATCH_SIZE }));
    const children = await loader.load(parent._id);
    return field.list ? children : children[0] ?? null;
  };
}

type AggregateRowsReader = (
  store: Store, model: SchemaModel, type: TypeModel, field: FieldModel, parents: readonly GraphObject[],
  filter: Record<string, unknown> | null | undefined, requested: readonly string[], auth: TypeConstraint,
) => Promise<Record<string, unknown>[]>;

/** Derived relation: one grouping pipeline over the children of every parent. */
const derivedAggregateRows: AggregateRowsReader = async (store, model, type, field, parents, filter, requested, auth) => {
  const { collection, pipeline } = relationAggregatePipeline(model, type.name, field.name, parents, filter, requested, auth);
  return store.collection(collection).aggregate(restrictPipeline(collection, pipeline, auth));
};

/** Stored list relation: one projected read of the children per target collection, folded per parent. */
const storedAggregateRows: AggregateRowsReader = async (store, model, type, field, parents, filter, requested, auth) => {
  const { queries, projection, outputs } = storedAggregateQueries(model, type.name, field.name, parents, filter, requested, auth);
  const children = await Promise.all(queries.map((query) =>
    readProjected(store.collection(query.collection), restrictPlan(query.plan, auth(query.collection)), projection)));
  return foldStoredAggregates(field, parents, children.flat(), outputs);
};

/** The documents `plan` selects, in natural order, with only the fields of `projection` (and `_id`). */
async function readProjected(collection: Collection, plan: FilterPlan, projection: Record<string, 1>): Promise<StoredDocument[]> {
  if (plan.lookups.length === 0) return collection.find(plan.match, { projection });
  const rows = await collection.aggregate([...planStages(plan), { $project: projection }]);
  return rows as StoredDocument[];
}

/** `<field>Aggregate(filter)`: one store call per level (per target collection for a stored list). */
function relationAggregate(model: SchemaModel, type: TypeModel, field: FieldModel) {
  return async (parent: GraphObject, args: { filter?: Record<string, unknown> | null }, context: RequestContext, info: GraphQLResolveInfo) => {
    const requested = selectedFieldNames(info);
    const loader = loaderFor(context, loaderKey('aggregate', type, field, { args, requested }), () => new DataLoader<GraphObject, Record<string, unknown>, string>(async (parents) => {
      const auth = authConstraints(context, model, 'query');
      const parentIds = parents.map((one) => one._id);
      const rows = field.storedHere === false
        ? await derivedAggregateRows(storeOf(context, model), model, type, field, parents, args.filter, requested, auth)
        : await storedAggregateRows(storeOf(context, model), model, type, field, await withStoredEdges(context, model, type, field, parents), args.filter, requested, auth);
      const results = readRelationAggregates(rows, parentIds, requested);
      return parentIds.map((id) => results.get(id) ?? {});
    }, { cacheKeyFn: (one) => one._id, maxBatchSize: ID_BATCH_SIZE }));
    return loader.load(parent);
  };
}

export function relationResolvers(model: SchemaModel, type: TypeModel): Record<string, unknown> {
  const resolvers: Record<string, unknown> = {};
  if (type.kind !== 'type') return resolvers;
  for (const field of type.fields) {
    if (field.of.kind !== 'relation' || isCustomLogic(field)) continue;
    resolvers[field.name] = field.storedHere === false
      ? derivedRelation(model, type, field)
      : storedRelation(model, type, field);
    if (field.list) resolvers[names.relationAggregate(field.name)] = relationAggregate(model, type, field);
  }
  return resolvers;
}
