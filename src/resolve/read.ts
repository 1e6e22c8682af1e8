import { concreteTypesOf } from '../sdl/facts.js';
import { compileAggregate, readAggregateResult } from '../query/aggregate.js';
import { compileFilter, stripTemporaryFields, type FilterPlan } from '../query/filter.js';
import { compileOrder } from '../query/order.js';
import { compilePage } from '../query/pagination.js';
import type { SchemaModel } from '../sdl/model.js';
import type { Collection, Filter, SortSpec, Store, StoredDocument, Transaction } from '../store/port.js';
import { compareBySort } from '../query/sort-compare.js';
import { ID_BATCH_SIZE, idBatches } from '../store/id-batches.js';
import { nullsLastPage } from '../query/nulls-last.js';
import { authConstraints, restrictPipeline, restrictPlan, type TypeConstraint } from './authorize.js';
import type { RequestContext } from './context.js';
import { storeOf } from './model-store.js';

/** A stored document handed to GraphQL, tagged with its concrete type (interfaces need it). */
export type GraphObject = StoredDocument & { __typename: string };

/** What the reads of one resolver call share: made once per call by readScopeOf. */
export interface ReadScope {
  model: SchemaModel;
  /** The request's store, under its budget (RequestContext.store). */
  store: Store;
  /** The caller's query rule per type: narrows the objects read and the related objects a `has` filter counts. */
  auth?: TypeConstraint;
  /** Set when the read belongs to a write (a delete payload reads its objects before they go). */
  tx?: Transaction;
  /** A further condition per concrete type (the field's `@cascade`), applied after the caller's rules. */
  narrow?: TypeConstraint;
}

/** The read scope of a resolver call: the request's store and the caller's query rules. */
export function readScopeOf(model: SchemaModel, context: RequestContext, tx?: Transaction): ReadScope {
  return { model, store: storeOf(context, model), auth: authConstraints(context, model, 'query'), tx };
}

export interface ListArgs {
  filter?: Record<string, unknown> | null;
  order?: Record<string, unknown> | null;
  first?: number | null;
  offset?: number | null;
}

/** Adds a constraint (e.g. "related to these parents", or an auth rule) to a compiled filter. */
export function constrain(plan: FilterPlan, constraint: Filter | undefined): FilterPlan {
  if (!constraint || Object.keys(constraint).length === 0) return plan;
  if (Object.keys(plan.match).length === 0) return { lookups: plan.lookups, match: constraint };
  return { lookups: plan.lookups, match: { $and: [plan.match, constraint] } };
}

/** One store call: `find` for plain filters, an aggregation when the filter needs other collections. */
export function runPlan(collection: Collection, plan: FilterPlan, sort: SortSpec, skip: number, limit: number | undefined, tx?: Transaction): Promise<StoredDocument[]> {
  // Not an async function: most reads are a plain find, whose promise is handed on as it is.
  if (plan.lookups.length === 0) return collection.find(plan.match, { sort, skip, limit }, { tx });
  return runPipeline(collection, plan, sort, skip, limit, tx);
}

async function runPipeline(collection: Collection, plan: FilterPlan, sort: SortSpec, skip: number, limit: number | undefined, tx?: Transaction): Promise<StoredDocument[]> {
  const pipeline = [...plan.lookups, { $match: plan.match }, ...nullsLastPage(sort, skip, limit)];
  const rows = await collection.aggregate(pipeline, { tx });
  return rows.map((row) => stripTemporaryFields(row) as StoredDocument);
}

/** Marks documents with their concrete type; they are the store's copies, ours to change, so none is copied again. */
export function tag(documents: StoredDocument[], typeName: string): GraphObject[] {
  for (const document of documents) (document as GraphObject).__typename = typeName;
  return documents as GraphObject[];
}

export interface Selection {
  filter?: Record<string, unknown> | null;
  sort: SortSpec;
  skip: number;
  /** Undefined: every match (relation loaders page per parent themselves). */
  limit?: number;
}

/**
 * `read` for every item: concurrently outside a transaction, one after another inside one. A transaction's
 * session carries one operation at a time (the MongoDB drivers do not support parallel operations in a
 * transaction; a replica set answers `NoSuchTransaction`), and the embedded store takes the same path.
 */
export async function eachInScope<T, R>(items: readonly T[], tx: Transaction | undefined, read: (item: T) => Promise<R>): Promise<R[]> {
  if (!tx) return Promise.all(items.map(read));
  const results: R[] = [];
  for (const item of items) results.push(await read(item));
  return results;
}

/**
 * Filter, order and page over a type or an interface. An interface spans the collections of its
 * implementing types; each is asked for its first `skip + limit` in order and the pages are merged, so
 * the result is the same as over one collection.
 */
export async function selectObjects(scope: ReadScope, typeName: string, selection: Selection, constraint?: Filter): Promise<GraphObject[]> {
  const { model, store, auth, tx, narrow } = scope;
  const { filter, sort, skip, limit } = selection;
  // `first: 0` asks for nothing; MongoDB would read a limit of 0 as "no limit".
  if (limit === 0) return [];
  const types = concreteTypesOf(model, typeName);
  if (types.length === 1) {
    const [type] = types;
    const plan = restrictPlan(restrictPlan(constrain(compileFilter(model, type.name, filter, auth), constraint), auth?.(type.name)), narrow?.(type.name));
    return tag(await runPlan(store.collection(type.name), plan, sort, skip, limit, tx), type.name);
  }
  const pages = await eachInScope(types, tx, async (type) => {
    const plan = restrictPlan(restrictPlan(constrain(compileFilter(model, type.name, filter, auth), constraint), auth?.(type.name)), narrow?.(type.name));
    return tag(await runPlan(store.collection(type.name), plan, sort, 0, limit === undefined ? undefined : skip + limit, tx), type.name);
  });
  const merged = pages.flat().sort((a, b) => compareBySort(a, b, sort));
  return merged.slice(skip, limit === undefined ? undefined : skip + limit);
}

/** `queryT(filter, order, first, offset)` semantics, with the documented default and maximum page size. */
export function findObjects(scope: ReadScope, typeName: string, args: ListArgs, constraint?: Filter): Promise<GraphObject[]> {
  const sort = compileOrder(scope.model, typeName, args.order ?? undefined);
  const { skip, limit } = compilePage({ first: args.first ?? undefined, offset: args.offset ?? undefined });
  return selectObjects(scope, typeName, { filter: args.filter, sort, skip, limit }, constraint);
}

/**
 * `findObjects` among the objects with the given ids (a mutation payload's objects): one read, or, past
 * ID_BATCH_SIZE ids, one read per batch, each for its first `offset + first` in order, merged as
 * selectObjects merges the collections of an interface.
 */
export async function findAmongIds(scope: ReadScope, typeName: string, args: ListArgs, ids: readonly string[]): Promise<GraphObject[]> {
  if (ids.length <= ID_BATCH_SIZE) return findObjects(scope, typeName, args, { _id: { $in: [...ids] } });
  const sort = compileOrder(scope.model, typeName, args.order ?? undefined);
  const { skip, limit } = compilePage({ first: args.first ?? undefined, offset: args.offset ?? undefined });
  const wanted = limit === undefined ? undefined : skip + limit;
  const pages = await eachInScope(idBatches(ids), scope.tx, (batch) =>
    selectObjects(scope, typeName, { filter: args.filter, sort, skip: 0, limit: wanted }, { _id: { $in: batch } }));
  const merged = pages.flat().sort((a, b) => compareBySort(a, b, sort));
  return merged.slice(skip, wanted);
}

/** `aggregateT`: one pipeline; an interface unions its implementing types' collections into it. */
export async function aggregateObjects(scope: ReadScope, typeName: string, filter: Record<string, unknown> | null | undefined, requested: string[], constraint?: Filter): Promise<Record<string, unknown>> {
  const { model, store, auth, tx } = scope;
  const [first, ...others] = concreteTypesOf(model, typeName);
  if (!first) return readAggregateResult([], requested);
  const plan = constrain(compileFilter(model, first.name, filter, auth), constraint);
  const pipeline = compileAggregate(model, first.name, plan, requested);
  const unions = others.map((type) => ({ $unionWith: { coll: type.name, pipeline: [] } }));
  const stages = [...unions, ...pipeline];
  const rows = await store.collection(first.name).aggregate(auth ? restrictPipeline(first.name, stages, auth) : stages, { tx });
  return readAggregateResult(rows, requested);
}
