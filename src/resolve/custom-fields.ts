import DataLoader from 'dataloader';
import { ErrorCode } from '../errors/codes.js';
import { GraphQLError, type GraphQLFieldResolver, type GraphQLResolveInfo } from 'graphql';
import {
  callCustomHttp, CustomHttpError, LambdaCallError, lambdaFieldsOf, resolverNameFor,
  type LambdaAuthHeader, type LambdaField, type LambdaGraphqlExecutor, type LambdaHost,
} from '../custom/index.js';
import type { CustomHttpConfig, FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import { loaderFor, type RequestContext, type ResolverServices } from './context.js';
import { withStoredFields, type AnsweredRelation } from './custom-objects.js';
import { customParentOf, shapeCustomResult } from './custom-values.js';
import { selectedOnType } from './selection-parents.js';
import { selectedFieldNames } from './selections.js';

/**
 * Resolvers of `@lambda` and `@custom(http:)` fields, on types and on the user's `type Query` /
 * `type Mutation`. A failing call fails only its own field, with a GraphQL error saying why.
 *
 * Batching per level (all parents of one field in one request tick):
 * - a lambda registered with `addMultiParentGraphQLResolvers` gets one `callBatch` for the level;
 * - a lambda registered with `addGraphQLResolvers` gets one call per parent, so one parent's failure
 *   fails only that parent's field;
 * - `@custom(http: { mode: BATCH })` sends one request for the level, `SINGLE` one per parent.
 */

type Resolver = GraphQLFieldResolver<Record<string, unknown>, RequestContext, Record<string, unknown>>;

/** `{ TypeName: { field: resolver } }` for every custom field of the schema (`Query`/`Mutation` included). */
export function customFieldResolvers(model: SchemaModel, services: ResolverServices): Record<string, Record<string, Resolver>> {
  const map: Record<string, Record<string, Resolver>> = {};
  const add = (typeName: string, fieldName: string, resolver: Resolver) => {
    (map[typeName] ??= {})[fieldName] = resolver;
  };
  for (const lambdaField of lambdaFieldsOf(model)) {
    const type = model.types.get(lambdaField.typeName);
    add(lambdaField.typeName, lambdaField.field.name, type ? lambdaOnType(model, services, type, lambdaField) : lambdaOnRoot(model, services, lambdaField));
  }
  for (const type of model.types.values()) {
    if (type.kind !== 'type') continue;
    for (const field of type.fields) {
      if (field.custom) add(type.name, field.name, httpOnType(model, services, type, field, field.custom));
    }
  }
  for (const [root, fields] of [['Query', model.customQueries], ['Mutation', model.customMutations]] as const) {
    for (const field of fields) {
      if (field.custom) add(root, field.name, httpOnRoot(model, services, root, field, field.custom));
    }
  }
  return map;
}

function lambdaOnType(model: SchemaModel, services: ResolverServices, type: TypeModel, lambdaField: LambdaField): Resolver {
  const { field } = lambdaField;
  return async (parent, args, context, info) => {
    const { host, name } = lambdaResolver(context.services ?? services, lambdaField, info);
    const authHeader = authHeaderOf(model, context);
    const graphql = graphqlExecutorFor(services, context);
    const value = await lambdaFailures(async () => {
      if (host.kindOf(name) !== 'batch') {
        return host.call(name, { parent: customParentOf(type, parent), args, authHeader }, graphql);
      }
      // One loader per type and field (an `Interface.field` resolver may serve several types, whose parents
      // convert differently), keyed by the parent object itself: the same object asked twice is answered once.
      const loader = loaderFor(context, `lambda:${type.name}.${field.name}:${name}:${JSON.stringify(args)}`, () =>
        new DataLoader<Record<string, unknown>, unknown>((parents) =>
          settleEach(parents.length, () => host.callBatch(name, { parents: parents.map((one) => customParentOf(type, one)), args, authHeader }, graphql))));
      return loader.load(parent);
    });
    return answered(model, context, info, field, shapeCustomResult(model, type.name, field, value, `lambda resolver "${name}"`));
  };
}

function lambdaOnRoot(model: SchemaModel, services: ResolverServices, lambdaField: LambdaField): Resolver {
  const { field, typeName } = lambdaField;
  return async (_root, args, context, info) => {
    const { host, name } = lambdaResolver(context.services ?? services, lambdaField);
    const value = await lambdaFailures(() => host.call(name, { args, authHeader: authHeaderOf(model, context) }, graphqlExecutorFor(services, context)));
    return answered(model, context, info, field, shapeCustomResult(model, typeName, field, value, `lambda resolver "${name}"`));
  };
}

function httpOnType(model: SchemaModel, services: ResolverServices, type: TypeModel, field: FieldModel, config: CustomHttpConfig): Resolver {
  const label = `${type.name}.${field.name}`;
  return async (parent, args, context, info) => {
    const common = { field: label, args, incomingHeaders: context.headers, ...httpSettings(context.services ?? services) };
    const value = await httpFailures(async () => {
      if (config.mode !== 'BATCH') return callCustomHttp(config, { ...common, parent: customParentOf(type, parent) });
      const loader = loaderFor(context, `custom:${label}:${JSON.stringify(args)}`, () =>
        new DataLoader<Record<string, unknown>, unknown>((parents) =>
          settleEach(parents.length, () => callCustomHttp(config, { ...common, parents: parents.map((one) => customParentOf(type, one)) }))));
      return loader.load(parent);
    });
    return answered(model, context, info, field, shapeCustomResult(model, type.name, field, value, `@custom endpoint`));
  };
}

function httpOnRoot(model: SchemaModel, services: ResolverServices, root: string, field: FieldModel, config: CustomHttpConfig): Resolver {
  const label = `${root}.${field.name}`;
  return async (_root, args, context, info) => {
    const value = await httpFailures(() => callCustomHttp(config, { field: label, args, incomingHeaders: context.headers, ...httpSettings(context.services ?? services) }));
    return answered(model, context, info, field, shapeCustomResult(model, root, field, value, `@custom endpoint`));
  };
}

/**
 * The shaped answer of a field of an object type, with the stored fields the selection asks for and the
 * objects lack filled in from their stored documents (for the objects that carry their ID).
 */
function answered(model: SchemaModel, context: RequestContext, info: GraphQLResolveInfo, field: FieldModel, shaped: unknown): unknown {
  if (field.of.kind !== 'relation' || shaped === null) return shaped;
  return withStoredFields(context, model, shaped as AnsweredRelation, new Set(selectedFieldNames(info)));
}

/**
 * The host and the registered name serving the field now (the script may have been replaced since the
 * schema). A field selected through an interface (`queryCharacter { bio }`) runs the interface's resolver
 * (`Character.bio`) when the script registers one, as Dgraph does; otherwise, and on the type itself, the
 * type's own (`Human.bio`), then the interface's.
 */
function lambdaResolver(services: ResolverServices, lambdaField: LambdaField, info?: GraphQLResolveInfo): { host: LambdaHost; name: string } {
  const label = `${lambdaField.typeName}.${lambdaField.field.name}`;
  const host = services.lambdaHost;
  if (!host || host.names().length === 0) {
    throw lambdaError(label, 'no lambda script is loaded: start the service with --lambda FILE or POST the script to /admin/lambda', 'not-registered');
  }
  const name = (info && lambdaField.candidates.length > 1 ? writtenResolverName(lambdaField, info, host) : undefined) ?? resolverNameFor(lambdaField, host);
  if (!name) {
    throw lambdaError(label, `the lambda script registers no resolver for it (expected ${lambdaField.candidates.map((n) => `"${n}"`).join(' or ')})`, 'not-registered');
  }
  return { host, name };
}

/** `<written type>.field` when the field was selected on an interface of the type and the script registers that name. */
function writtenResolverName(lambdaField: LambdaField, info: GraphQLResolveInfo, host: LambdaHost): string | undefined {
  const written = selectedOnType(info);
  if (written === lambdaField.typeName) return undefined;
  const name = `${written}.${lambdaField.field.name}`;
  return host.has(name) ? name : undefined;
}

function lambdaError(label: string, reason: string, failure: string): GraphQLError {
  return new GraphQLError(`Lambda field ${label}: ${reason}`, { extensions: { code: ErrorCode.LAMBDA_FAILED, failure } });
}

async function lambdaFailures<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof LambdaCallError) {
      throw new GraphQLError(error.message, { extensions: { code: ErrorCode.LAMBDA_FAILED, failure: error.failure } });
    }
    throw error;
  }
}

async function httpFailures<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CustomHttpError) {
      const status = error.status === undefined ? {} : { status: error.status };
      throw new GraphQLError(error.message, { extensions: { code: ErrorCode.CUSTOM_HTTP_FAILED, ...status } });
    }
    throw error;
  }
}

/** A DataLoader batch answer: the values, or the one error repeated for every key, so each field fails alone. */
async function settleEach(count: number, run: () => Promise<unknown[]>): Promise<unknown[]> {
  try {
    return await run();
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    return Array.from({ length: count }, () => failure);
  }
}

function httpSettings(services: ResolverServices) {
  const settings = services.customHttp;
  return { allowHosts: settings?.allowHosts ?? [], secrets: settings?.secrets, timeoutMs: settings?.timeoutMs, fetch: settings?.fetch };
}

/** Dgraph hands lambdas the schema's configured auth header (the `# Autograph.Authorization` line). */
function authHeaderOf(model: SchemaModel, context: RequestContext): LambdaAuthHeader | undefined {
  const key = model.authorization?.header;
  if (!key) return undefined;
  const value = headerValue(context.headers, key);
  return value === undefined ? undefined : { key, value };
}

function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (headers[lower] !== undefined) return headers[lower];
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === lower);
  return key === undefined ? undefined : headers[key];
}

/** The lambda's `graphql(query, variables)`: runs against this service with the caller's headers. */
function graphqlExecutorFor(services: ResolverServices, context: RequestContext): LambdaGraphqlExecutor {
  return async (query, variables) => {
    if (!services.executeGraphQL) throw new Error('this service was started without a GraphQL executor for lambdas');
    return services.executeGraphQL(query, variables, context.headers);
  };
}
