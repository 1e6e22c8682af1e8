import DataLoader from 'dataloader';
import { GraphQLError, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import type { SchemaModel, TypeModel } from '../sdl/model.js';
import { ID_BATCH_SIZE } from '../store/id-batches.js';
import type { StoredDocument } from '../store/port.js';
import { authConstraint, restrictPlan } from './authorize.js';
import { loaderFor, type RequestContext } from './context.js';
import { runPlan } from './read.js';

/**
 * `_entities` support: `__resolveReference` for every type with a `@key`. All representations of one
 * type in one request load with one store query (one per ID_BATCH_SIZE of them). An extended type's object that has no local document
 * yet resolves to the key alone (its local fields empty), since the owner vouches for it. Fields the
 * gateway sent in the representation (`@requires` inputs) stay on the object for custom resolvers.
 * The type's `query` rule applies: an object the caller may not see resolves to null (for an extended
 * type under a rule too, since the rule cannot vouch for an object this service does not hold).
 */
export function entityResolvers(model: SchemaModel, type: TypeModel): Record<string, unknown> {
  const key = type.key;
  if (!key || type.kind !== 'type') return {};
  const keyIsDocumentId = type.extended || type.idField?.name === key;

  const createLoader = (context: RequestContext) => new DataLoader<string, StoredDocument | undefined>(async (keys) => {
    const filter = keyIsDocumentId ? { _id: { $in: [...keys] } } : { [key]: { $in: [...keys] } };
    const plan = restrictPlan({ lookups: [], match: filter }, authConstraint(context, model, type.name, 'query'));
    const documents = await runPlan(context.store.collection(type.name), plan, { _id: 1 }, 0, undefined);
    const byKey = new Map(documents.map((document) => [keyIsDocumentId ? document._id : String(document[key]), document]));
    return keys.map((value) => byKey.get(value));
  }, { maxBatchSize: ID_BATCH_SIZE });

  return {
    __resolveReference: async (reference: Record<string, unknown>, context: RequestContext) => {
      const value = reference[key];
      if (value === undefined || value === null) {
        throw new GraphQLError(`representation of ${type.name} lacks its key field ${key}`, { extensions: { code: ErrorCode.BAD_USER_INPUT } });
      }
      const document = await loaderFor(context, `entity:${type.name}`, () => createLoader(context)).load(String(value));
      if (document) return { ...reference, ...document, __typename: type.name };
      const restricted = authConstraint(context, model, type.name, 'query') !== undefined;
      return type.extended && !restricted ? { ...reference, _id: String(value), __typename: type.name } : null;
    },
  };
}

/**
 * `_entities` refuses a representation whose `__typename` is not an entity of this service as the
 * client's mistake (BAD_USER_INPUT, naming the type, its position and the entities there are), before
 * @apollo/subgraph's resolver would fail it as an internal error.
 */
export function checkEntityTypenames(schema: GraphQLSchema, model: SchemaModel): void {
  const field = schema.getQueryType()?.getFields()._entities;
  if (!field?.resolve) return;
  const resolve = field.resolve as GraphQLFieldResolver<unknown, unknown, { representations: Array<{ __typename: string }> }>;
  const entities = [...model.types.values()].filter((type) => type.kind === 'type' && type.key).map((type) => type.name).sort();
  const known = new Set(entities);
  field.resolve = (source, args: { representations: Array<{ __typename: string }> }, context, info) => {
    args.representations.forEach(({ __typename }, index) => {
      if (known.has(__typename)) return;
      throw new GraphQLError(
        `_entities: representations[${index}] has __typename ${JSON.stringify(__typename)}, which is not an entity of this service (entities: ${entities.join(', ') || 'none'})`,
        { extensions: { code: ErrorCode.BAD_USER_INPUT } },
      );
    });
    return resolve(source, args, context, info);
  };
}
