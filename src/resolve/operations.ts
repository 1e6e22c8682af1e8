import { GraphQLError, type GraphQLFieldResolver, type GraphQLResolveInfo } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import { names } from '../api/names.js';
import { apiIdField, canAdd, canUpdate, uniqueIdFields } from '../api/fields.js';
import type { SchemaModel, TypeModel } from '../sdl/model.js';
import { authConstraints } from './authorize.js';
import type { RequestContext } from './context.js';
import { addObjects, deleteObjects, updateObjects, type MutationAuth, type MutationOutcome } from './mutations/run.js';
import { aggregateObjects, findAmongIds, findObjects, readScopeOf, type GraphObject, type ListArgs, type ReadScope } from './read.js';
import { checkMutationCascade, fieldCascade } from './cascade.js';
import type { Transaction } from '../store/port.js';
import { selectedFieldNames, selectionsOf } from './selections.js';
import { storeOf } from './model-store.js';
import { hashPasswordsIn } from './passwords/hash-inputs.js';
import { storedPath } from '../query/schema-facts.js';
import { checkIdArgument } from './id-argument.js';
import { commitAnnouncer } from './mutation-events.js';

type Resolver = GraphQLFieldResolver<any, RequestContext, any>;

type UpdateInput = { filter: Record<string, unknown>; set?: Record<string, unknown> | null; remove?: Record<string, unknown> | null };

/** What a mutation resolver hands to its payload type's field resolvers. */
export interface Payload {
  typeName: string;
  outcome: MutationOutcome;
  /** Delete payloads: the deleted objects, read before deletion, per response key of the list field. */
  deleted?: Map<string, GraphObject[]>;
  msg?: string;
}

function allIds(outcome: MutationOutcome): string[] {
  return [...outcome.ids.values()].flat();
}

/** `getT(<ID field>: ...)` or `getT(<@id field>: value)`: exactly one key. */
function getConstraint(model: SchemaModel, type: TypeModel, args: Record<string, unknown>): Record<string, unknown> {
  const idField = apiIdField(model, type);
  const given = Object.entries(args).filter(([, value]) => value !== null && value !== undefined);
  if (given.length !== 1) {
    const keys = [idField?.name, ...uniqueIdFields(type).filter((field) => !field.isIdField).map((field) => field.name)].filter(Boolean);
    throw new GraphQLError(`${names.get(type.name)} takes exactly one of ${keys.join(', ')}; got ${given.length}`, { extensions: { code: ErrorCode.BAD_USER_INPUT } });
  }
  const [[name, value]] = given;
  if (name === idField?.name) return { _id: value };
  const field = type.fieldsByName.get(name);
  return { [field ? storedPath(field) : name]: value };
}

/** The read scope of a query field: the caller's rules, and the field's `@cascade` when it has one. */
function cascadedScope(model: SchemaModel, context: RequestContext, info: GraphQLResolveInfo, tx?: Transaction): ReadScope {
  const scope = readScopeOf(model, context, tx);
  // readScopeOf always sets the caller's query rules; the cascade is checked under the same ones.
  const cascade = fieldCascade(model, info, scope.auth!);
  return cascade ? { ...scope, narrow: cascade.constraint } : scope;
}

export function queryResolvers(model: SchemaModel, type: TypeModel): Record<string, Resolver> {
  const T = type.name;
  return {
    [names.get(T)]: async (_root, args, context, info) => {
      const [found] = await findObjects(cascadedScope(model, context, info), T, { first: 1 }, getConstraint(model, type, args));
      if (found) return found;
      // Only a miss is refused: an object stored under another id (imported, say) stays reachable.
      const idName = apiIdField(model, type)?.name;
      if (idName !== undefined && args[idName] !== undefined && args[idName] !== null) checkIdArgument(model, type, args[idName], info);
      return null;
    },
    [names.query(T)]: (_root, args: ListArgs, context, info) => findObjects(cascadedScope(model, context, info), T, args),
    [names.aggregate(T)]: (_root, args: { filter?: Record<string, unknown> | null }, context, info) =>
      aggregateObjects(readScopeOf(model, context), T, args.filter, selectedFieldNames(info)),
  };
}

/** The caller's rules, for the mutation runners (query: which existing objects an input may reference). */
function mutationAuth(context: RequestContext, model: SchemaModel): MutationAuth {
  return {
    query: authConstraints(context, model, 'query'),
    add: authConstraints(context, model, 'add'),
    update: authConstraints(context, model, 'update'),
    delete: authConstraints(context, model, 'delete'),
  };
}

export function mutationResolvers(model: SchemaModel, type: TypeModel): Record<string, Resolver> {
  const T = type.name;
  const announce = { add: commitAnnouncer(model, type, 'add'), update: commitAnnouncer(model, type, 'update'), delete: commitAnnouncer(model, type, 'delete') };
  const resolvers: Record<string, Resolver> = {
    [names.delete(T)]: async (_root, args, context, info): Promise<Payload> => {
      checkMutationCascade(info);
      const deleted = new Map<string, GraphObject[]>();
      const outcome = await deleteObjects(model, storeOf(context, model), T, args.filter, async (ids, tx) => {
        const allDeleted = [...ids.values()].flat();
        const scope = readScopeOf(model, context, tx);
        for (const selection of selectionsOf(info, names.payloadField(T))) {
          deleted.set(selection.responseKey, await findAmongIds(scope, T, selection.args, allDeleted));
        }
      }, mutationAuth(context, model));
      announce.delete?.(context, { outcome });
      return { typeName: T, outcome, deleted, msg: outcome.numUids > 0 ? 'Deleted' : 'No nodes were deleted' };
    },
  };
  if (canUpdate(model, type)) {
    resolvers[names.update(T)] = async (_root, args, context, info): Promise<Payload> => {
      checkMutationCascade(info);
      // As Dgraph's update rewriter: no `set` and no `remove` (absent, null or `{}`) changes nothing and
      // reads nothing, not even the filter's matches.
      if (isEmptyPatch(args.input.set) && isEmptyPatch(args.input.remove)) return { typeName: T, outcome: { ids: new Map(), numUids: 0 } };
      const input = await withHashedPasswords(model, context, T, args.input);
      const outcome = await updateObjects(model, storeOf(context, model), T, input, mutationAuth(context, model));
      announce.update?.(context, { outcome, set: input.set, remove: input.remove });
      return { typeName: T, outcome };
    };
  }
  if (canAdd(model, type)) {
    resolvers[names.add(T)] = async (_root, args, context, info): Promise<Payload> => {
      checkMutationCascade(info);
      const input = await hashPasswordsIn(model, context, T, args.input, names.add(T));
      const outcome = await addObjects(model, storeOf(context, model), T, input, args.upsert === true, mutationAuth(context, model));
      announce.add?.(context, { outcome, input });
      return { typeName: T, outcome };
    };
  }
  return resolvers;
}

function isEmptyPatch(patch: Record<string, unknown> | null | undefined): boolean {
  return patch === null || patch === undefined || Object.keys(patch).length === 0;
}

/** An update's input with the passwords of its `set` hashed (resolve/passwords/). */
async function withHashedPasswords(model: SchemaModel, context: RequestContext, typeName: string, input: UpdateInput): Promise<UpdateInput> {
  if (!input.set) return input;
  const [set] = await hashPasswordsIn(model, context, typeName, [input.set], names.update(typeName));
  return { ...input, set };
}

/** The list field of Add/Update/Delete payloads (`task(filter, order, first, offset)`). */
export function payloadListResolver(model: SchemaModel): Resolver {
  return async (payload: Payload, args: ListArgs, context, info) => {
    if (payload.deleted) return payload.deleted.get(info.path.key as string) ?? [];
    return findAmongIds(cascadedScope(model, context, info), payload.typeName, args, allIds(payload.outcome));
  };
}
