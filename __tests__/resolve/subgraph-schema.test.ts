/**
 * The subgraph schema built directly by graphql-js must be the one Apollo's buildSubgraphSchema builds
 * from the same generated SDL: same types, fields, arguments, directives and federation additions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { lexicographicSortSchema, parse, printSchema, type GraphQLSchema } from 'graphql';
import { generateApi } from '../../src/api/generate';
import { DateTimeScalar, Int64Scalar } from '../../src/resolve/scalars';
import { buildExecutableSchema } from '../../src/resolve/schema';
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
  const schema = buildExecutableSchema(model, services);

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
