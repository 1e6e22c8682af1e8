/**
 * Dgraph's rule for lists: a list field with no value answers `[]`, never `null` (Dgraph's
 * `field.NullValue()` in graphql/schema/wrappers.go, used by its result completion for every field: stored
 * scalar lists, relations, lists inside what `@custom`/`@lambda` answered, and custom queries). A field
 * whose resolver fails still answers `null` with its error, as GraphQL execution records field errors.
 */
import { defaultFieldResolver, getNullableType, isListType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';

type Resolver = GraphQLFieldResolver<unknown, unknown>;

export function answerEmptyLists(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    // Introspection's own lists (`__Type.fields` of a scalar, say) are null by the GraphQL specification.
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (isListType(getNullableType(field.type))) field.resolve = emptyWhenMissing(field.resolve ?? defaultFieldResolver);
    }
  }
}

function emptyWhenMissing(resolve: Resolver): Resolver {
  return (source, args, context, info) => {
    const result = resolve(source, args, context, info);
    if (isPromiseLike(result)) return Promise.resolve(result).then(orEmpty);
    return orEmpty(result);
  };
}

function orEmpty(value: unknown): unknown {
  return value === null || value === undefined ? [] : value;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
