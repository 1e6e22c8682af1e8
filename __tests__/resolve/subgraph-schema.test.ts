/**
 * The subgraph schema built directly by graphql-js must be the one Apollo's buildSubgraphSchema builds
 * from the same generated SDL: same types, fields, arguments, directives and federation additions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { graphql, GraphQLError, lexicographicSortSchema, parse, printSchema, type GraphQLSchema } from 'graphql';
import { generateApi } from '../../src/api/generate';
import { DateTimeScalar, Int64Scalar } from '../../src/resolve/scalars';
import { buildExecutableSchema } from '../../src/resolve/schema';
import { buildSubgraphApiSchema } from '../../src/resolve/subgraph-schema';
import { buildSchemaModel } from '../../src/sdl/build';
import type { SchemaModel } from '../../src/sdl/model';
import type { Store } from '../../src/store/port';
import { MUSIC_SCHEMA, TASK_USER_SCHEMA } from '../fixtures/schemas';

const GATEWAY_DEMO = fs.readFileSync(path.join(__dirname, '../../gateway-demo/schema.graphql'), 'utf8');

function modelOf(source: string): SchemaModel {
  const built = buildSchemaModel(source);
  if (!built.model) throw new Error(JSON.stringify(built.errors));
  return built.model;
}

const sorted = (schema: GraphQLSchema): string => printSchema(lexicographicSortSchema(schema));
const services = { store: {} as Store } as never;

describe.each<[string, string]>([
  ['no entities', TASK_USER_SCHEMA],
  ['interfaces', MUSIC_SCHEMA],
  ['an entity and an extended entity (the gateway demo)', GATEWAY_DEMO],
  ['an extended type with @provides and @requires', [
    'type Product @key(fields: "id") { id: ID! name: String }',
    'extend type User @key(fields: "id") { id: ID! @external name: String @external greeting: String @requires(fields: "name") reviews: [Review] }',
    'type Review { id: ID! body: String @search(by: [hash]) author: User @provides(fields: "name") }',
  ].join('\n')],
])('%s', (_name, source) => {
  const model = modelOf(source);
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildExecutableSchema(model, services);
  });

  test('prints as the schema Apollo buildSubgraphSchema builds from the same SDL', () => {
    // With the custom scalars the service attaches, which bring their descriptions.
    const apollo = buildSubgraphSchema({ typeDefs: parse(generateApi(model).sdl), resolvers: { DateTime: DateTimeScalar, Int64: Int64Scalar } as never });
    expect(sorted(schema)).toBe(sorted(apollo));
  });

  test('keeps the applied federation directives of the generated SDL on its types', () => {
    for (const type of model.types.values()) {
      const directives = schema.getType(type.name)?.astNode?.directives?.map((directive) => directive.name.value) ?? [];
      expect(directives.includes('key')).toBe(type.key !== undefined);
    }
  });
});

describe('buildSubgraphApiSchema refuses a generated document that does not build, at the generated line', () => {
  const pause = () => Promise.resolve();
  test.each<[string, string, string, number[]]>([
    ['a field declared twice (SDL validation)', 'type Query { a: Int\n  a: Int }', 'Field "Query.a" can only be defined once.', [1, 2]],
    ['an unknown type (SDL validation)', 'type Query {\n  a: Missing }', 'Unknown type "Missing".', [2]],
    ['an object field of an input type (schema validation)', 'input In { x: Int }\ntype Query {\n  a: In }', 'The type of Query.a must be Output Type but got: In.', [3]],
  ])('%s', async (_name, sdl, message, lines) => {
    const built = buildSubgraphApiSchema({ definitions: parse(sdl).definitions, entityTypeNames: [], resolvers: {}, serviceSdl: '', federationVersion: 1 }, pause);
    const error = (await built.then(() => undefined, (rejection: unknown) => rejection)) as GraphQLError;
    expect(error).toBeInstanceOf(GraphQLError);
    expect(error.message).toBe(message);
    expect(error.locations?.map((location) => location.line)).toEqual(lines);
  });

  test('a valid document answers _service with the SDL given, and has no _entities without entity types', async () => {
    const schema = await buildSubgraphApiSchema({ definitions: parse('type Query { a: Int }').definitions, entityTypeNames: [], resolvers: {}, serviceSdl: 'type Query { a: Int }', federationVersion: 1 }, pause);
    const result = await graphql({ schema, source: '{ _service { sdl } }' });
    expect(result).toEqual({ data: { _service: { sdl: 'type Query { a: Int }' } } });
    expect(Object.keys(schema.getQueryType()!.getFields())).toEqual(['a', '_service']);
  });
});
