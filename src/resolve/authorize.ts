import { AuthorizationError, authOf, authPlan, isUnrestricted, type AuthContext, type AuthOperation } from '../auth/index.js';
import { isMatchAll } from '../query/combine.js';
import { planStages, type FilterPlan } from '../query/filter.js';
import { allOfPlans, notPlan } from '../query/relation-filter.js';
import type { SchemaModel } from '../sdl/model.js';
import type { Filter, Pipeline, Store, StoredDocument, Transaction } from '../store/port.js';

/**
 * `@auth` in the resolvers: every read and write of a type's collection is narrowed by the plan of the
 * caller's rules for that operation (auth/ compiles them), inside the same store call as the request's own
 * filter.
 */

/** The auth plan of one operation per concrete type, for one caller; undefined: unrestricted. */
export type TypeConstraint = (typeName: string) => FilterPlan | undefined;

/** The plan restricting `operation` on the concrete type `typeName` for this request's caller. */
export function authConstraint(context: AuthContext | undefined, model: SchemaModel, typeName: string, operation: AuthOperation): FilterPlan | undefined {
  const auth = authOf(context, model);
  return isUnrestricted(model, typeName, operation, auth) ? undefined : authPlan(model, typeName, operation, auth);
}

export function authConstraints(context: AuthContext | undefined, model: SchemaModel, operation: AuthOperation): TypeConstraint {
  return (typeName) => authConstraint(context, model, typeName, operation);
}

/**
 * `plan` narrowed by an auth plan. When the request's own filter is plain, it goes first as a `$match`
 * stage (in `lookups`, which runs before the final match), so the rule's lookups only see the objects the
 * request selects and a store answers that first `$match` from its indexes.
 */
export function restrictPlan(plan: FilterPlan, auth: FilterPlan | undefined): FilterPlan {
  if (!auth) return plan;
  if (auth.lookups.length === 0) return allOfPlans([plan, auth]);
  if (plan.lookups.length === 0 && !isMatchAll(plan.match)) {
    return { lookups: [{ $match: plan.match }, ...auth.lookups], match: auth.match };
  }
  return allOfPlans([plan, auth]);
}

/**
 * A pipeline that reads `collection` (and other collections through `$unionWith`) narrowed to the
 * documents `constraint` allows in each of them: the auth stages go right after the pipeline's leading
 * `$match` (or first). The fields the rule's lookups add start with `__`; readers drop them.
 */
export function restrictPipeline(collection: string, pipeline: Pipeline, constraint: TypeConstraint): Pipeline {
  const stages = pipeline.map((stage) => {
    const union = stage.$unionWith as { coll: string; pipeline?: Pipeline } | undefined;
    if (!union) return stage;
    return { $unionWith: { ...union, pipeline: restrictPipeline(union.coll, union.pipeline ?? [], constraint) } };
  });
  const auth = constraint(collection);
  if (!auth) return stages;
  const leading = stages.length > 0 && '$match' in stages[0] ? 1 : 0;
  return [...stages.slice(0, leading), ...planStages(auth), ...stages.slice(leading)];
}

/** Ids of the objects of `typeName` that `candidates` selects and `auth` allows: one store call. */
export async function allowedIds(store: Store, tx: Transaction, typeName: string, candidates: Filter, auth: FilterPlan): Promise<Set<string>> {
  return new Set((await selectIds(store, tx, typeName, restrictPlan({ lookups: [], match: candidates }, auth))).map((row) => row._id));
}

/**
 * The `holderType` objects holding one of `targetIds` in the single-valued edge `field` that `auth` does
 * NOT allow (their update rule refuses the caller), by the target they hold: one store call.
 */
export async function deniedHolders(store: Store, tx: Transaction, holderType: string, field: string, targetIds: readonly string[], auth: FilterPlan): Promise<Map<string, string[]>> {
  const plan = restrictPlan({ lookups: [], match: { [field]: { $in: [...targetIds] } } }, notPlan(auth));
  const byTarget = new Map<string, string[]>();
  for (const row of await selectIds(store, tx, holderType, plan, field)) {
    const target = String(row[field]);
    byTarget.set(target, [...(byTarget.get(target) ?? []), row._id]);
  }
  return byTarget;
}

async function selectIds(store: Store, tx: Transaction, typeName: string, plan: FilterPlan, field?: string): Promise<StoredDocument[]> {
  const projection: Record<string, 1> = field ? { _id: 1, [field]: 1 } : { _id: 1 };
  const collection = store.collection(typeName);
  if (plan.lookups.length === 0) return collection.find(plan.match, { projection }, { tx });
  return (await collection.aggregate([...planStages(plan), { $project: projection }], { tx })) as StoredDocument[];
}

async function countAllowed(store: Store, tx: Transaction, typeName: string, ids: readonly string[], auth: FilterPlan): Promise<number> {
  const plan = restrictPlan({ lookups: [], match: { _id: { $in: [...ids] } } }, auth);
  const collection = store.collection(typeName);
  if (plan.lookups.length === 0) return collection.count(plan.match, { tx });
  const rows = await collection.aggregate([...planStages(plan), { $count: 'allowed' }], { tx });
  return Number(rows[0]?.allowed ?? 0);
}

/**
 * `add` rules: every object a mutation creates must satisfy its type's add rule (one count per type with a
 * rule). `store` is the mutation's staged store, whose writes are not made yet: throwing writes nothing.
 */
export async function checkAddRules(store: Store, tx: Transaction, created: ReadonlyMap<string, ReadonlySet<string>>, constraint: TypeConstraint): Promise<void> {
  for (const [typeName, createdOfType] of created) {
    const auth = constraint(typeName);
    if (!auth || createdOfType.size === 0) continue;
    const ids = [...createdOfType];
    const allowed = await countAllowed(store, tx, typeName, ids, auth);
    if (allowed < ids.length) {
      const refused = ids.length - allowed;
      throw new AuthorizationError(
        `${refused} of the ${ids.length} new ${typeName} objects do not satisfy the add rule of ${typeName}; nothing was written`,
      );
    }
  }
}
