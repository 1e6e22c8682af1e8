import { Kind, parse, print, type DocumentNode, type FieldDefinitionNode } from 'graphql';
import { activateSchema, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { DGRAPH_APOLLOSERVICE, type ApolloServiceFixture } from './dgraph-apolloservice-fixtures';

/**
 * Spec section 4.2, rule 1, over HTTP, with schemas written in the style of Dgraph's `apolloservice` test
 * inputs (one for each): the `Query` and `Mutation` fields of `_service { sdl }` are exactly those Dgraph's
 * generator gives such a schema, in its order and with its arguments and types (an extended type's `addT`,
 * `updateT` and `deleteT` among them; its queries not).
 */

/** Each field of the root type `name` (its `type` or `extend type` definitions), printed as one line. */
function rootFields(document: DocumentNode, name: string): string[] {
  const fields: FieldDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if ((definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION) && definition.name.value === name) {
      fields.push(...(definition.fields ?? []));
    }
  }
  return fields.map((field) => print(field));
}

function dgraphFields(fixture: ApolloServiceFixture, block: 'query' | 'mutation'): string[] {
  const text = fixture[block];
  return text === '' ? [] : rootFields(parse(text), block === 'query' ? 'Query' : 'Mutation');
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});


test('the table covers every input of Dgraph\'s apolloservice test data, one fixture each', () => {
  expect(DGRAPH_APOLLOSERVICE.map((fixture) => fixture.dgraphInput)).toEqual([
    'auth-directive', 'custom-directive', 'extended-types', 'generate-directive', 'single-extended-type',
  ]);
});

test.each(DGRAPH_APOLLOSERVICE.map((fixture) => [fixture.dgraphInput, fixture.name, fixture] as const))('%s (%s): _service { sdl } lists exactly the Query and Mutation fields Dgraph gives', async (_input, _name, fixture) => {
  await activateSchema(server.url, fixture.input);
  const { _service } = await gqlData(server.url, '{ _service { sdl } }');
  const sdl = parse(_service.sdl);
  expect({ query: rootFields(sdl, 'Query'), mutation: rootFields(sdl, 'Mutation') })
    .toEqual({ query: dgraphFields(fixture, 'query'), mutation: dgraphFields(fixture, 'mutation') });
});
