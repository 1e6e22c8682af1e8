import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/index.js';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import gql from 'graphql-tag';
import { generateApi } from '../api/generate.js';
import { names } from '../api/names.js';
import type { SchemaModel } from '../sdl/model.js';
import { chargeAnswerObjects } from './answer-budget.js';
import type { ResolverServices } from './context.js';
import { customFieldResolvers } from './custom-fields.js';
import { checkEntityTypenames, entityResolvers } from './entities.js';
import { mutationResolvers, payloadListResolver, queryResolvers } from './operations.js';
import { relationResolvers } from './relations.js';
import { DateTimeScalar, Int64Scalar } from './scalars.js';

/** What the server keeps about the active schema, next to the executable schema. */
export interface SchemaExtensions {
  model: SchemaModel;
  /** The SDL `_service { sdl }` answers: the gateway's view of this subgraph. */
  gatewaySdl: string;
}

export function schemaExtensions(schema: GraphQLSchema): SchemaExtensions | undefined {
  return (schema.extensions as { autograph?: SchemaExtensions }).autograph;
}

/**
 * SchemaModel → the executable federation subgraph schema: generated SDL plus resolvers over the store.
 * Throws a GraphQLError when the generated SDL does not build (a bug, or a schema sdl/ let through).
 */
export function buildExecutableSchema(model: SchemaModel, services: ResolverServices): GraphQLSchema {
  const { sdl, gatewaySdl } = generateApi(model);
  const schema = buildSubgraphSchema({ typeDefs: gql(sdl), resolvers: resolverMap(model, services) as GraphQLResolverMap<unknown> });

  // buildSubgraphSchema answers `_service` with the full SDL; the gateway must not see the queries of
  // extended types (it reaches those entities through `_entities`).
  const serviceField = schema.getQueryType()?.getFields()._service;
  if (!serviceField) throw new GraphQLError('the subgraph schema has no _service field');
  serviceField.resolve = () => ({ sdl: gatewaySdl });
  checkEntityTypenames(schema, model);
  chargeAnswerObjects(schema);

  const extensions: SchemaExtensions = { model, gatewaySdl };
  schema.extensions = { ...schema.extensions, autograph: extensions };
  return schema;
}

function resolverMap(model: SchemaModel, services: ResolverServices): Record<string, Record<string, unknown>> {
  const map: Record<string, Record<string, unknown>> = { Query: {}, Mutation: {} };
  const payloadList = payloadListResolver(model);
  for (const type of model.types.values()) {
    const T = type.name;
    Object.assign(map.Query, queryResolvers(model, type));
    Object.assign(map.Mutation, mutationResolvers(model, type));

    const typeResolvers: Record<string, unknown> = { ...relationResolvers(model, type), ...entityResolvers(model, type) };
    if (type.idField) typeResolvers[type.idField.name] = (object: { _id: string }) => object._id;
    if (type.kind === 'interface') typeResolvers.__resolveType = (object: { __typename: string }) => object.__typename;
    map[T] = typeResolvers;

    if (type.kind === 'type') map[names.addPayload(T)] = { [names.payloadField(T)]: payloadList };
    map[names.updatePayload(T)] = { [names.payloadField(T)]: payloadList };
    map[names.deletePayload(T)] = {
      [names.payloadField(T)]: payloadList,
      numUids: (payload: { outcome: { numUids: number } }) => payload.outcome.numUids,
      msg: (payload: { msg?: string }) => payload.msg ?? null,
    };
    if (type.kind === 'type') map[names.addPayload(T)].numUids = (payload: { outcome: { numUids: number } }) => payload.outcome.numUids;
    map[names.updatePayload(T)].numUids = (payload: { outcome: { numUids: number } }) => payload.outcome.numUids;
  }
  for (const [typeName, fields] of Object.entries(customFieldResolvers(model, services))) map[typeName] = { ...map[typeName], ...fields };
  if (Object.keys(map.Mutation).length === 0) delete map.Mutation;
  return { ...map, DateTime: DateTimeScalar as never, Int64: Int64Scalar as never };
}
