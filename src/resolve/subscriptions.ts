import { names } from '../api/names.js';
import { generateOf } from '../sdl/generate-directive.js';
import type { SchemaModel } from '../sdl/model.js';

/**
 * The `Subscription` fields (Dgraph's `@withSubscription`) and the Query field each repeats: a type's
 * `getT`, `queryT` and `aggregateT`, and `@lambda` queries marked `@withSubscription`.
 */
export function subscribedQueries(model: SchemaModel): string[] {
  const fields: string[] = [];
  for (const type of model.types.values()) {
    if (!type.withSubscription) continue;
    const generate = generateOf(type);
    if (generate.get) fields.push(names.get(type.name));
    if (generate.query) fields.push(names.query(type.name));
    if (generate.aggregate) fields.push(names.aggregate(type.name));
  }
  for (const field of model.customQueries) if (field.withSubscription) fields.push(field.name);
  return fields;
}

/**
 * Resolvers of the `Subscription` fields: each resolves as the Query field of the same name. live/ runs
 * a subscription's operation again whenever the data it reads may have changed, so every result is a
 * full query answer under the subscriber's `@auth` rules.
 */
export function subscriptionResolvers(queryResolvers: Record<string, unknown>, model: SchemaModel): Record<string, unknown> {
  const resolvers: Record<string, unknown> = {};
  for (const field of subscribedQueries(model)) {
    const resolve = queryResolvers[field];
    // `getT` exists only for a type with an ID or @id field; api/ generates the same set.
    if (resolve !== undefined) resolvers[field] = { resolve };
  }
  return resolvers;
}
