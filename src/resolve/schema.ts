import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/index.js';
import { GraphQLError, parse, type GraphQLSchema } from 'graphql';
import { canAdd, canUpdate } from '../api/fields.js';
import { generateApi, originTypeAt, type GeneratedApi } from '../api/generate.js';
import { names } from '../api/names.js';
import type { SchemaModel, SourceLocation, TypeModel } from '../sdl/model.js';
import { chargeAnswerObjects } from './answer-budget.js';
import { answerEmptyLists } from './empty-lists.js';
import type { ResolverServices } from './context.js';
import { customFieldResolvers } from './custom-fields.js';
import { checkEntityTypenames, entityResolvers } from './entities.js';
import { mutationResolvers, payloadListResolver, queryResolvers } from './operations.js';
import { relationResolvers } from './relations.js';
import { remoteFieldResolvers } from './remote-fields.js';
import { storedFieldResolvers } from './stored-fields.js';
import { DateTimeScalar, Int64Scalar } from './scalars.js';
import { buildSubgraphApiSchema } from './subgraph-schema.js';
import { checkPasswordResolvers } from './passwords/check-password.js';
import { subscriptionResolvers } from './subscriptions.js';

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
 * Rejects with a GeneratedApiError when the generated SDL does not build (a bug, or a schema sdl/ let
 * through). Each stage of a big schema holds the event loop for a while: requests that arrived meanwhile
 * run between stages.
 */
export async function buildExecutableSchema(model: SchemaModel, services: ResolverServices): Promise<GraphQLSchema> {
  const api = generateApi(model);
  await yieldToEventLoop();
  const { gatewaySdl } = api;
  const schema = await buildGeneratedSchema(model, api, resolverMap(model, services) as GraphQLResolverMap<unknown>);
  checkEntityTypenames(schema, model);
  answerEmptyLists(schema);
  chargeAnswerObjects(schema);

  const extensions: SchemaExtensions = { model, gatewaySdl };
  schema.extensions = { ...schema.extensions, autograph: extensions };
  return schema;
}

/**
 * The generated SDL as a subgraph schema whose `_service` answers the gateway SDL: the gateway must not see
 * the queries of extended types (it reaches those entities through `_entities`). A failure names the user
 * type whose generated part is at fault.
 */
async function buildGeneratedSchema(model: SchemaModel, api: GeneratedApi, resolvers: GraphQLResolverMap<unknown>): Promise<GraphQLSchema> {
  try {
    const { definitions } = parse(api.sdl);
    await yieldToEventLoop();
    return await buildSubgraphApiSchema(
      {
        definitions,
        entityTypeNames: [...model.types.values()].filter((type) => type.kind === 'type' && type.keys.length > 0).map((type) => type.name),
        resolvers,
        serviceSdl: api.gatewaySdl,
        federationVersion: model.federation.version,
      },
      yieldToEventLoop,
    );
  } catch (error) {
    throw generatedApiError(model, api, error);
  }
}

/** A schema sdl/ accepted but whose generated API does not build: reported at the user's type, never as generated code alone. */
export class GeneratedApiError extends Error {
  constructor(message: string, readonly locations: SourceLocation[]) {
    super(message);
    this.name = 'GeneratedApiError';
  }
}

export function generatedApiError(model: SchemaModel, api: GeneratedApi, error: unknown): GeneratedApiError {
  const message = error instanceof Error ? error.message : String(error);
  const generatedLines = error instanceof GraphQLError ? (error.locations ?? []).map((location) => location.line) : [];
  const typeNames = [...new Set(generatedLines.map((line) => originTypeAt(api, line)).filter((name): name is string => name !== undefined))];
  const types = typeNames.map((name) => model.types.get(name)).filter((type): type is TypeModel => type !== undefined);
  if (types.length === 0) return new GeneratedApiError(`the API generated from the schema does not build: ${message}`, []);
  const subject = types.map((type) => `type ${type.name}`).join(', ');
  return new GeneratedApiError(`the API generated for ${subject} does not build: ${message}`, types.map((type) => type.loc));
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function resolverMap(model: SchemaModel, services: ResolverServices): Record<string, Record<string, unknown>> {
  const map: Record<string, Record<string, unknown>> = { Query: {}, Mutation: {} };
  const payloadList = payloadListResolver(model);
  for (const type of model.types.values()) {
    const T = type.name;
    Object.assign(map.Query, queryResolvers(model, type), checkPasswordResolvers(model, type));
    Object.assign(map.Mutation, mutationResolvers(model, type));

    const typeResolvers: Record<string, unknown> = { ...storedFieldResolvers(model, type), ...relationResolvers(model, type), ...entityResolvers(model, type) };
    if (type.idField) typeResolvers[type.idField.name] = (object: { _id: string }) => object._id;
    if (type.kind === 'interface') typeResolvers.__resolveType = (object: { __typename: string }) => object.__typename;
    map[T] = typeResolvers;

    const addable = canAdd(model, type);
    if (addable) map[names.addPayload(T)] = { [names.payloadField(T)]: payloadList };
    const updatable = canUpdate(model, type);
    if (updatable) map[names.updatePayload(T)] = { [names.payloadField(T)]: payloadList };
    map[names.deletePayload(T)] = {
      [names.payloadField(T)]: payloadList,
      numUids: (payload: { outcome: { numUids: number } }) => payload.outcome.numUids,
      msg: (payload: { msg?: string }) => payload.msg ?? null,
    };
    if (addable) map[names.addPayload(T)]!.numUids = (payload: { outcome: { numUids: number } }) => payload.outcome.numUids;
    if (updatable) map[names.updatePayload(T)]!.numUids = (payload: { outcome: { numUids: number } }) => payload.outcome.numUids;
  }
  // A union's objects carry their collection as `__typename`, as an interface's do.
  for (const union of model.unions?.keys() ?? []) map[union] = { __resolveType: (object: { __typename: string }) => object.__typename };
  for (const [typeName, fields] of Object.entries(customFieldResolvers(model, services))) map[typeName] = { ...map[typeName], ...fields };
  Object.assign(map, remoteFieldResolvers(model));
  if (Object.keys(map.Mutation).length === 0) delete map.Mutation;
  const subscriptions = subscriptionResolvers(map.Query, model);
  if (Object.keys(subscriptions).length > 0) map.Subscription = subscriptions;
  return { ...map, DateTime: DateTimeScalar as never, Int64: Int64Scalar as never };
}
