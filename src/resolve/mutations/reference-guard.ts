import { AuthorizationError } from '../../auth/index.js';
import { concreteTypesOf } from '../../sdl/facts.js';
import type { FieldModel, SchemaModel } from '../../sdl/model.js';
import type { FilterPlan } from '../../query/filter.js';
import type { Store, Transaction } from '../../store/port.js';
import { allowedIds, deniedHolders, type TypeConstraint } from '../authorize.js';
import type { EdgeWatch } from './edges.js';
import { candidateFilters, type References } from './references.js';
import { idBatches } from '../../store/id-batches.js';
import { storedPath } from '../../query/schema-facts.js';

/**
 * `@auth` for the existing objects a mutation reaches through its input rather than through its filter.
 * A Ref may name an existing object only if the caller may see it (its type's query rule), and a write to
 * a field stored on an existing object (the stored side of an edge linked or unlinked from the other side,
 * or the previous holder of a one-to-one edge) needs that object's update rule. Otherwise the mutation is
 * refused and, as its writes are held back until every verdict is in (run.ts), writes nothing.
 *
 * Like Dgraph's update rules, the verdicts are those of the state before the mutation: linking someone
 * else's task to yourself must not pass because the task is yours once linked. They are read before the
 * first write, for every candidate the input names (references.ts), one store call per type and rule, so
 * a check during the mutation costs no store call. Objects the mutation created, or selected itself under
 * its update rule (matched by an update's filter, found by an upsert), need no further check.
 */
export interface ReferenceGuard extends EdgeWatch {
  /** Whether the caller may see the existing object a Ref names (at once when no store read is needed). */
  isVisible(typeName: string, id: string): boolean | Promise<boolean>;
  /** Throws unless the caller may update the existing object (then free to change for the rest of the mutation). */
  requireUpdatable(typeName: string, id: string, change: string): Promise<void>;
}

export interface GuardSetup {
  model: SchemaModel;
  store: Store;
  tx: Transaction;
  query: TypeConstraint;
  update: TypeConstraint;
  /** The mutation's created objects by type, filled while it runs. */
  created: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What was read before the mutation about the candidates of one type. Rules absent: not restricted. */
interface Verdicts {
  found: Set<string>;
  visible?: Set<string>;
  updatable?: Set<string>;
}

export async function prepareReferenceGuard(setup: GuardSetup, references: References, selected: ReadonlyMap<string, readonly string[]>): Promise<ReferenceGuard> {
  const { model, store, tx, query, update } = setup;
  const oneToOneTargets = new Set([...references.oneToOne.values()]
    .filter((edge) => update(edge.holderType) !== undefined)
    .flatMap((edge) => concreteTypesOf(model, edge.targetType).map((type) => type.name)));
  const verdicts = new Map<string, Verdicts>();
  for (const [typeName, named] of references.byType) {
    const candidates = candidateFilters(named);
    const [queryPlan, updatePlan] = [query(typeName), update(typeName)];
    if (candidates.length === 0 || (!queryPlan && !updatePlan && !oneToOneTargets.has(typeName))) continue;
    // One read per batch of candidates, one after another: a transaction's session runs one operation at a time.
    const found = new Set<string>();
    for (const filter of candidates) {
      for (const document of await store.collection(typeName).find(filter, { projection: { _id: 1 } }, { tx })) found.add(document._id);
    }
    const allowedAmongFound = async (plan: FilterPlan | undefined): Promise<Set<string> | undefined> => {
      if (!plan) return undefined;
      const allowed = new Set<string>();
      for (const batch of idBatches([...found])) (await allowedIds(store, tx, typeName, { _id: { $in: batch } }, plan)).forEach((id) => allowed.add(id));
      return allowed;
    };
    verdicts.set(typeName, { found, visible: await allowedAmongFound(queryPlan), updatable: await allowedAmongFound(updatePlan) });
  }

  // One-to-one edges: for every target the input names or the mutation selected, the objects holding it
  // before the mutation that the caller may not update.
  const denied = new Map<string, { targets: Set<string>; holders: Map<string, string[]> }>();
  for (const [key, edge] of references.oneToOne) {
    const updatePlan = update(edge.holderType);
    if (!updatePlan) continue;
    const targets = new Set<string>();
    for (const type of concreteTypesOf(model, edge.targetType)) {
      verdicts.get(type.name)?.found.forEach((id) => targets.add(id));
      selected.get(type.name)?.forEach((id) => targets.add(id));
    }
    const holders = new Map<string, string[]>();
    for (const batch of idBatches([...targets])) {
      for (const [target, ids] of await deniedHolders(store, tx, edge.holderType, storedPath(edge.field), batch, updatePlan)) holders.set(target, ids);
    }
    denied.set(key, { targets, holders });
  }

  const chosen = new Map<string, Set<string>>();
  const select = (typeName: string, ids: readonly string[]): void => {
    const set = chosen.get(typeName) ?? new Set<string>();
    chosen.set(typeName, set);
    ids.forEach((id) => set.add(id));
  };
  selected.forEach((ids, typeName) => select(typeName, ids));
  const isCreated = (typeName: string, id: string) => setup.created.get(typeName)?.has(id) === true;
  const isFree = (typeName: string, id: string) => isCreated(typeName, id) || chosen.get(typeName)?.has(id) === true;

  /**
   * The verdict read before the mutation; for an object that was not among the candidates then (an `@id`
   * value it took during this mutation, by an update the caller was allowed), the verdict of now.
   */
  const allows = (typeName: string, id: string, rule: 'visible' | 'updatable'): boolean | Promise<boolean> => {
    const plan = rule === 'visible' ? query(typeName) : update(typeName);
    if (!plan) return true;
    const read = verdicts.get(typeName);
    if (read?.found.has(id)) return read[rule]?.has(id) === true;
    return allowedIds(store, tx, typeName, { _id: id }, plan).then((allowed) => allowed.has(id));
  };

  const requireUpdatable = async (typeName: string, id: string, change: string): Promise<void> => {
    if (isFree(typeName, id)) return;
    if (!await allows(typeName, id, 'updatable')) {
      throw new AuthorizationError(`${change} would change the existing ${typeName} ${id}, which the update rule of ${typeName} does not allow for this caller; nothing was written`);
    }
    select(typeName, [id]);
  };

  return {
    isVisible: (typeName, id) => isCreated(typeName, id) || allows(typeName, id, 'visible'),
    requireUpdatable,
    changed: (holderType: string, holderId: string, field: FieldModel) => requireUpdatable(holderType, holderId, `linking or unlinking ${holderType}.${field.name}`),
    async beforeDetach(holderType, field, targetId, newHolderId) {
      const updatePlan = update(holderType);
      // A relation field's named type is its target type.
      if (!updatePlan || concreteTypesOf(model, field.namedType).some((type) => isCreated(type.name, targetId))) return;
      const read = denied.get(`${holderType}.${field.name}`);
      const holders = read?.targets.has(targetId)
        ? read.holders.get(targetId) ?? []
        : (await deniedHolders(store, tx, holderType, storedPath(field), [targetId], updatePlan)).get(targetId) ?? [];
      const refused = holders.find((holder) => holder !== newHolderId && !isFree(holderType, holder));
      if (refused) {
        throw new AuthorizationError(`linking ${holderType}.${field.name} would take ${targetId} from the existing ${holderType} ${refused}, which the update rule of ${holderType} does not allow for this caller; nothing was written`);
      }
    },
  };
}
