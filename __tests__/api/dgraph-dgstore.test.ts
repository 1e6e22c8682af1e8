import { generateApi } from '../../src/api/generate.js';
import { validModel } from '../sdl/helpers.js';

/**
 * The generated API of `@secret`, `@default` and reverse `@dgraph` edges, block by block against Dgraph's
 * schemagen output for the same input (graphql/schema/testdata/schemagen/output/*.graphql): the fields,
 * their order and nullability. Blocks Autograph prints differently for other reasons (aggregates,
 * federation) are not compared here.
 */

function block(sdl: string, header: string): string[] {
  const start = sdl.indexOf(`${header} {\n`);
  if (start < 0) throw new Error(`no block "${header}" in:\n${sdl}`);
  const body = sdl.slice(start + header.length + 3, sdl.indexOf('\n}', start));
  return body.split('\n').map((line) => line.trim());
}

function queryField(sdl: string, name: string): string | undefined {
  return block(sdl, 'type Query').find((line) => line.startsWith(`${name}(`));
}

describe('@secret (Dgraph password-type.graphql)', () => {
  const { sdl } = generateApi(validModel('type Author @secret(field: "pwd") {\n\tname: String! @id\n\ttoken: String\n}'));

  test('the password is the last field of the add input (required), the patch and the ref (optional)', () => {
    expect(block(sdl, 'input AddAuthorInput')).toEqual(['name: String!', 'token: String', 'pwd: String!']);
    expect(block(sdl, 'input AuthorPatch').slice(-1)).toEqual(['pwd: String']);
    expect(block(sdl, 'input AuthorRef')).toEqual(['name: String', 'token: String', 'pwd: String']);
  });

  test('checkAuthorPassword takes the @id key and the password; the password is no field, filter or order', () => {
    expect(queryField(sdl, 'checkAuthorPassword')).toBe('checkAuthorPassword(name: String!, pwd: String!): Author');
    expect(block(sdl, 'type Author')).toEqual(['name: String!', 'token: String']);
    expect(block(sdl, 'enum AuthorOrderable')).toEqual(['name', 'token']);
    expect(block(sdl, 'enum AuthorHasFilter')).toEqual(['name', 'token']);
  });

  test('an interface secret gives the interface and each implementing type a check (interfaces-with-types-and-password.graphql)', () => {
    const api = generateApi(validModel('interface Character @secret(field: "password") {\n  id: ID!\n  name: String!\n}\ntype Human implements Character {\n  credits: Int\n}\ntype Droid implements Character {\n  primaryFunction: String\n}')).sdl;
    expect(queryField(api, 'checkCharacterPassword')).toBe('checkCharacterPassword(id: ID!, password: String!): Character');
    expect(queryField(api, 'checkHumanPassword')).toBe('checkHumanPassword(id: ID!, password: String!): Human');
    expect(queryField(api, 'checkDroidPassword')).toBe('checkDroidPassword(id: ID!, password: String!): Droid');
    expect(block(api, 'input AddHumanInput')).toEqual(['name: String!', 'credits: Int', 'password: String!']);
  });

  test('no key, no check: a type without an ID or @id field has no checkTPassword', () => {
    const api = generateApi(validModel('type Note @secret(field: "pin") {\n  text: String\n}')).sdl;
    expect(queryField(api, 'checkNotePassword')).toBeUndefined();
  });
});

describe('reverse predicates (Dgraph field-with-reverse-predicate-in-dgraph-directive.graphql)', () => {
  const { sdl } = generateApi(validModel([
    'type Movie {\n  id: ID!\n  name: String!\n  director: [MovieDirector] @dgraph(pred: "~directed.movies")\n}',
    'type MovieDirector {\n  id: ID!\n  name: String!\n  directed: [Movie] @dgraph(pred: "directed.movies")\n}',
  ].join('\n')));

  test('the reverse edge is queried like any relation but left out of every input', () => {
    expect(block(sdl, 'type Movie')).toEqual([
      'id: ID!',
      'name: String!',
      'director(filter: MovieDirectorFilter, order: MovieDirectorOrder, first: Int, offset: Int): [MovieDirector]',
      'directorAggregate(filter: MovieDirectorFilter): MovieDirectorAggregateResult',
    ]);
    expect(block(sdl, 'input AddMovieInput')).toEqual(['name: String!']);
    expect(block(sdl, 'input MoviePatch')).toEqual(['name: String']);
    expect(block(sdl, 'input MovieRef')).toEqual(['id: ID', 'name: String']);
    expect(block(sdl, 'input AddMovieDirectorInput')).toEqual(['name: String!', 'directed: [MovieRef]']);
  });
});

describe('@default: an add default makes the add input field optional (Dgraph gqlschema.go)', () => {
  const { sdl } = generateApi(validModel('type Task {\n  id: ID!\n  title: String!\n  status: String! @default(add: {value: "open"})\n  touched: DateTime! @default(update: {value: "$now"})\n}'));

  test.each([
    ['input AddTaskInput', ['title: String!', 'status: String', 'touched: DateTime!']],
    ['input TaskPatch', ['title: String', 'status: String', 'touched: DateTime']],
  ])('%s', (header, lines) => {
    expect(block(sdl, header)).toEqual(lines);
  });
});
