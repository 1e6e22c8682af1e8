import DataLoader from 'dataloader';
import { GraphQLError, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import type { SchemaModel, TypeModel } from '../sdl/model.js';
import { ID_BATCH_SIZE } from '../store/id-batches.js';
import type { StoredDocument } from '../store/port.js';
import { authConstraint, restrictPlan } from './authorize.js';
import { loaderFor, type RequestContext } from './context.js';
import { keyLookupOf, type KeyLookup } from './entity-keys.js';
import { runPlan } from './read.js';
import { storeOf } from './model-store.js';
import { storedPath } from '../query/schema-facts.js';

/**
 * `_entities` support: `__resolveReference` for every type with a resolvable `@key`. A representation is
 * matched against the keys in declaration order and found by the first whose fields it carries. All
 * representations of one type and key in one request load with one store query (one per ID_BATCH_SIZE
 * of them). An extended type's
 * object that has no local document yet resolves, by its identity key, to the key alone (its local
 * fields empty), since the owner vouches for it. Fields the gateway sent in the representation
 * (`@requires` inputs) stay on the object for custom resolvers, and for an `@external` field the sent
 * value wins over a copy stored here: the owner's value is the current one. The type's `query` rule applies: an
 * object the caller may not see resolves to null (for an extended type under a rule too, since the rule
 * cannot vouch for an object this service does not hold).
 */
export function entityResolvers(model: SchemaModel, type: TypeModel): Record<string, unknown> {
  if (type.kind !== 'type') return {};
  const lookups = type.keys.filter((key) => key.resolvable).map((key) => keyLookupOf(type, key));
  if (lookups.length === 0) return {};

  const createLoader = (context: RequestContext, lookup: KeyLookup) => new DataLoader<string, StoredDocument | undefined>(async (values) => {
    const plan = restrictPlan({ lookups: [], match: lookup.filterFor(values) }, authConstraint(context, model, type.name, 'query'));
    const documents = await runPlan(storeOf(context, model).collection(type.name), plan, { _id: 1 }, 0, undefined);
    const byValue = new Map(documents.map((document) => [lookup.valueOfDocument(document), document]));
    return values.map((value) => byValue.get(value));
  }, { maxBatchSize: ID_BATCH_SIZE });

  return {
    __resolveReference: async (reference: Record<string, unknown>, context: RequestContext) => {
      const matched = matchKey(lookups, reference);
      if (!matched) {
        const keys = lookups.map((lookup) => JSON.stringify(lookup.key.fields)).join(', ');
        throw new GraphQLError(`representation of ${type.name} carries the fields of none of its keys (${keys})`, { extensions: { code: ErrorCode.BAD_USER_INPUT } });
      }
      const { lookup, value } = matched;
      const loader = loaderFor(context, `entity:${type.name}:${lookup.key.fields}`, () => createLoader(context, lookup));
      const document = await loader.load(value);
      if (document) return { ...reference, ...document, ...externalValues(type, reference), __typename: type.name };
      const restricted = authConstraint(context, model, type.name, 'query') !== undefined;
      if (!type.extended || restricted || !lookup.isIdentity) return null;
      return { ...reference, _id: String(reference[type.key!]), __typename: type.name };
    },
  };
}

/** The representation's values of the type's `@external` fields (the owner's data) that the gateway sent. */
function externalValues(type: TypeModel, reference: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of type.fields) {
    if (field.external && field.name !== type.key && Object.hasOwn(reference, field.name)) values[storedPath(field)] = reference[field.name];
  }
  return values;
}

function matchKey(lookups: readonly KeyLookup[], reference: Readonly<Record<string, unknown>>): { lookup: KeyLookup; value: string } | undefined {
  for (const lookup of lookups) {
    const value = lookup.valueOf(reference);
    if (value !== undefined) return { lookup, value };
  }
  return undefined;
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
  const entities = [...model.types.values()].filter((type) => type.kind === 'type' && type.keys.length > 0).map((type) => type.name).sort();
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
