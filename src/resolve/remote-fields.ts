import type { GraphQLResolveInfo } from 'graphql';
import type { SchemaModel } from '../sdl/model.js';
import type { RequestContext } from './context.js';
import { withStoredFields, type AnsweredRelation } from './custom-objects.js';
import { selectedFieldNames } from './selections.js';

type Resolver = (parent: Record<string, unknown>, args: unknown, context: RequestContext, info: GraphQLResolveInfo) => unknown;

/**
 * Resolvers of the fields of `@remote` types that hold objects of stored types: the remote answer names
 * them (by ID, say) and their stored documents fill the values the answer lacks, as for any object custom
 * logic answers (custom-objects.ts). Every other field of a `@remote` type is the answer's value (shaped by
 * custom-values.ts, `@remoteResponse` keys already read), so it keeps GraphQL's default resolver.
 */
export function remoteFieldResolvers(model: SchemaModel): Record<string, Record<string, Resolver>> {
  const map: Record<string, Record<string, Resolver>> = {};
  for (const remote of model.remoteTypes?.values() ?? []) {
    if (remote.kind === 'union') continue;
    for (const field of remote.fields) {
      if (!model.types.has(field.namedType) && !model.unions?.has(field.namedType)) continue;
      (map[remote.name] ??= {})[field.name] = (parent, _args, context, info) => {
        const value = parent[field.name];
        if (value === null || value === undefined) return null;
        return withStoredFields(context, model, value as AnsweredRelation, new Set(selectedFieldNames(info)));
      };
    }
  }
  return map;
}
