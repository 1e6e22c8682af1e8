import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import { callerSuppliesId, concreteTypesOf } from '../sdl/facts.js';
import type { SchemaModel, TypeModel } from '../sdl/model.js';

/** The form of the ids the service makes (mutations/object-ids.ts): a MongoDB ObjectId as 24 hex digits. */
const GENERATED_ID = /^[0-9a-f]{24}$/i;

/**
 * Refuses an `ID` argument of `getT` (or `checkTPassword`) that cannot be an id of `type`, as Dgraph
 * refuses one that is not a uid: `couldn't rewrite query getT because ID argument (x) of getT was not
 * able to be parsed` (Dgraph's query.go and `IDArgValue` in graphql/schema/wrappers.go), at the field.
 * Only for types whose ids the service makes: an extended type's ids, or those of an `ID @id` field,
 * are the caller's and may be any text. Callers ask only when no object has the id, so objects stored
 * under ids of another form (imported, or in a collection served with `@dgraph(type:)`) stay reachable.
 */
export function checkIdArgument(model: SchemaModel, type: TypeModel, value: unknown, info: GraphQLResolveInfo): void {
  if (typeof value === 'string' && GENERATED_ID.test(value)) return;
  const concrete = concreteTypesOf(model, type.name);
  if (concrete.length === 0 || concrete.some(callerSuppliesId)) return;
  throw new GraphQLError(
    `couldn't rewrite query ${String(info.path.key)} because ID argument (${String(value)}) of ${info.fieldName} was not able to be parsed`,
    { nodes: info.fieldNodes, extensions: { code: ErrorCode.BAD_USER_INPUT } },
  );
}
