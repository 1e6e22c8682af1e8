import { GraphQLError, Source } from 'graphql';
import { generateApi, originTypeAt } from '../../src/api/generate.js';
import { generatedApiError } from '../../src/resolve/schema.js';
import { buildSchemaModel } from '../../src/sdl/build.js';

const SOURCE = `enum Color { RED }

type Marker { id: ID! }

type Task {
  id: ID!
  title: String! @search(by: [hash])
}

type Query { hello: String @lambda }
`;

const model = buildSchemaModel(SOURCE).model!;
const api = generateApi(model);
const lines = api.sdl.split('\n');
const lineOf = (text: string): number => lines.indexOf(text) + 1;

describe('originTypeAt: which user type a line of the generated SDL belongs to', () => {
  test.each<[string, string | undefined]>([
    ['scalar DateTime', undefined],
    ['enum Color {', undefined],
    ['type Marker {', 'Marker'],
    ['input MarkerFilter {', 'Marker'],
    ['type DeleteMarkerPayload {', 'Marker'],
    ['input StringHashFilter {', 'Task'],
    ['input AddTaskInput {', 'Task'],
    ['  title: String!', 'Task'],
    ['  getMarker(id: ID!): Marker', 'Marker'],
    ['  queryTask(filter: TaskFilter, order: TaskOrder, first: Int, offset: Int): [Task]', 'Task'],
    ['  hello: String', undefined],
    ['  deleteMarker(filter: MarkerFilter!): DeleteMarkerPayload', 'Marker'],
    ['  addTask(input: [AddTaskInput!]!): AddTaskPayload', 'Task'],
  ])('%s → %s', (text, typeName) => {
    expect(lineOf(text)).toBeGreaterThan(0);
    expect(originTypeAt(api, lineOf(text))).toBe(typeName);
  });
});

describe('generatedApiError: a generated API that does not build is reported at the user type', () => {
  const errorAt = (line: number) => new GraphQLError('Syntax Error: Expected Name, found "}".', { source: new Source(api.sdl), positions: [lines.slice(0, line - 1).join('\n').length + 1] });

  test('a located error inside the parts of a type names the type and its line:column in the upload', () => {
    const error = generatedApiError(model, api, errorAt(lineOf('input AddTaskInput {') + 1));
    expect(error.message).toBe('the API generated for type Task does not build: Syntax Error: Expected Name, found "}".');
    expect(error.locations).toEqual([{ line: 5, column: 6 }]);
  });

  test('an error outside any type, or without a location, still says what failed', () => {
    expect(generatedApiError(model, api, errorAt(1))).toMatchObject({ message: 'the API generated from the schema does not build: Syntax Error: Expected Name, found "}".', locations: [] });
    expect(generatedApiError(model, api, new Error('boom'))).toMatchObject({ message: 'the API generated from the schema does not build: boom', locations: [] });
  });
});
