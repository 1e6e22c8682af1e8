import { ManifestError, readManifest, sha256Hex } from '../../src/persisted/index.js';

const GET_USER = 'query GetUser($id: ID!) { user(id: $id) { ...UserFields } }\nfragment UserFields on User { name }';
const ADD_USER = 'mutation AddUser { addUser { name } }';

function operation(name: string, type: string, body: string, id = sha256Hex(body)) {
  return { id, name, type, body };
}

function manifest(operations: unknown[]) {
  return { format: 'apollo-persisted-query-manifest', version: 1, operations };
}

function problemsOf(input: unknown, maxQueryBytes = 10_000): string[] {
  try {
    readManifest(input, maxQueryBytes);
  } catch (error) {
    if (error instanceof ManifestError) return error.problems;
    throw error;
  }
  throw new Error('expected a ManifestError');
}

test('a valid manifest gives each operation with its hash', () => {
  const upper = sha256Hex(ADD_USER).toUpperCase();
  expect(readManifest(manifest([operation('GetUser', 'query', GET_USER), operation('AddUser', 'mutation', ADD_USER, upper)]), 10_000)).toEqual([
    { hash: sha256Hex(GET_USER), name: 'GetUser', type: 'query', body: GET_USER },
    { hash: sha256Hex(ADD_USER), name: 'AddUser', type: 'mutation', body: ADD_USER },
  ]);
});

test('an empty operation list is valid', () => {
  expect(readManifest(manifest([]), 10_000)).toEqual([]);
});

test.each([
  ['a non-object', [], ['the manifest must be a JSON object, got an array']],
  ['null', null, ['the manifest must be a JSON object, got null']],
  [
    'wrong format and version',
    { format: 'relay', version: 2, operations: [] },
    ['format must be "apollo-persisted-query-manifest", got "relay"', 'version must be 1, got 2'],
  ],
  ['operations missing', { format: 'apollo-persisted-query-manifest', version: 1 }, ['operations must be an array, got nothing']],
])('the manifest envelope: %s', (_label, input, problems) => {
  expect(problemsOf(input)).toEqual(problems);
});

test.each([
  ['an operation that is not an object', 'x', 'operations[0]: must be an object with id, name, type and body, got a string'],
  ['an id that is not a hash', operation('GetUser', 'query', GET_USER, 'abc'), 'operations[0] (GetUser): id must be the 64 hexadecimal digits of a SHA-256 hash, got "abc"'],
  [
    'an id that is not the hash of the body',
    operation('GetUser', 'query', GET_USER, sha256Hex(ADD_USER)),
    `operations[0] (GetUser): id ${sha256Hex(ADD_USER)} is not the SHA-256 of body (which is ${sha256Hex(GET_USER)})`,
  ],
  ['a body that does not parse', operation('Broken', 'query', 'query Broken {'), 'operations[0] (Broken): body does not parse at 1:15: Syntax Error: Expected Name, found <EOF>.'],
  ['an empty body', operation('Empty', 'query', '  '), 'operations[0] (Empty): body must be the operation\'s GraphQL text, got an empty string'],
  ['a body of fragments only', operation('F', 'query', 'fragment F on User { name }'), 'operations[0] (F): body holds no operation, only fragments'],
  ['a wrong type', operation('AddUser', 'query', ADD_USER), 'operations[0] (AddUser): type is "query", but the operation "AddUser" in body is a mutation'],
  ['an unknown type', operation('AddUser', 'write', ADD_USER), 'operations[0] (AddUser): type must be one of query, mutation, subscription, got "write"'],
  ['a name not in the body', operation('Other', 'query', GET_USER), 'operations[0] (Other): body has no operation named "Other" (it has GetUser)'],
  ['a missing name', { id: sha256Hex(GET_USER), type: 'query', body: GET_USER }, 'operations[0]: name must be a string, got nothing'],
])('an operation with %s is refused, naming it', (_label, entry, problem) => {
  expect(problemsOf(manifest([entry]))).toEqual([problem]);
});

test('a body over the size limit is refused', () => {
  expect(problemsOf(manifest([operation('GetUser', 'query', GET_USER)]), 20)).toEqual([
    `operations[0] (GetUser): body is ${Buffer.byteLength(GET_USER)} bytes; persisted queries may be at most 20 bytes`,
  ]);
});

test('a body nested deeper than the parser can follow is refused as not parsing, without a location', () => {
  const deep = `query Deep ${'{ a '.repeat(10_000)}${'}'.repeat(10_000)}`;
  expect(problemsOf(manifest([operation('Deep', 'query', deep)]), 64 * 1024)).toEqual([
    'operations[0] (Deep): body does not parse: RangeError: Maximum call stack size exceeded',
  ]);
});

test('every bad operation is reported, with its index', () => {
  const problems = problemsOf(manifest([operation('GetUser', 'query', GET_USER), operation('AddUser', 'query', ADD_USER), 7]));
  expect(problems).toEqual([
    'operations[1] (AddUser): type is "query", but the operation "AddUser" in body is a mutation',
    'operations[2]: must be an object with id, name, type and body, got a number',
  ]);
});

test('the error message says nothing was registered and lists the problems', () => {
  expect(() => readManifest(manifest([7]), 100)).toThrow(
    'the persisted query manifest was not accepted, nothing was registered:\n- operations[0]: must be an object with id, name, type and body, got a number',
  );
});

test.each([
  ['a string', 'manifest', ['the manifest must be a JSON object, got a string']],
  ['nothing', undefined, ['the manifest must be a JSON object, got nothing']],
  [
    'no format or version',
    { operations: [] },
    ['format must be "apollo-persisted-query-manifest", got nothing', 'version must be 1, got nothing'],
  ],
  [
    'a format too long to show whole',
    { format: 'f'.repeat(100), version: 1, operations: [] },
    [`format must be "apollo-persisted-query-manifest", got "${'f'.repeat(76)}...`],
  ],
  [
    'a format of 80 characters, shown whole',
    { format: 'f'.repeat(78), version: 1, operations: [] },
    [`format must be "apollo-persisted-query-manifest", got "${'f'.repeat(78)}"`],
  ],
  ['a format JSON cannot write', { format: Symbol('relay'), version: 1, operations: [] }, ['format must be "apollo-persisted-query-manifest", got Symbol(relay)']],
  [
    'a wrong format and operations that are not a list',
    { format: 'relay', version: 1, operations: {} },
    ['format must be "apollo-persisted-query-manifest", got "relay"', 'operations must be an array, got a object'],
  ],
])('more of the envelope: %s', (_label, input, problems) => {
  expect(problemsOf(input)).toEqual(problems);
});

test.each([
  ['a null entry', null, ['operations[0]: must be an object with id, name, type and body, got null']],
  ['an empty name (no label)', operation('', 'write', ADD_USER), ['operations[0]: type must be one of query, mutation, subscription, got "write"']],
  ['a numeric name (no label)', { ...operation('x', 'query', ADD_USER), name: 5 }, ['operations[0]: name must be a string, got a number']],
  ['a numeric type', operation('AddUser', 5 as unknown as string, ADD_USER), ['operations[0] (AddUser): type must be one of query, mutation, subscription, got 5']],
  [
    'no type',
    { id: sha256Hex(ADD_USER), name: 'AddUser', body: ADD_USER },
    ['operations[0] (AddUser): type must be one of query, mutation, subscription, got nothing'],
  ],
  ['a numeric body', { id: sha256Hex(ADD_USER), name: 'AddUser', type: 'mutation', body: 7 }, ["operations[0] (AddUser): body must be the operation's GraphQL text, got a number"]],
  ['no body', { id: sha256Hex(ADD_USER), name: 'AddUser', type: 'mutation' }, ["operations[0] (AddUser): body must be the operation's GraphQL text, got nothing"]],
  [
    'an empty body and a bad id: the body is not checked further',
    operation('AddUser', 'mutation', '', 'abc'),
    [
      'operations[0] (AddUser): id must be the 64 hexadecimal digits of a SHA-256 hash, got "abc"',
      "operations[0] (AddUser): body must be the operation's GraphQL text, got an empty string",
    ],
  ],
  [
    'an unknown type and a name not in the body: only the type is reported',
    operation('Other', 'write', ADD_USER),
    ['operations[0] (Other): type must be one of query, mutation, subscription, got "write"'],
  ],
  [
    'a missing name and a body that does not parse',
    { id: sha256Hex('query {'), type: 'query', body: 'query {' },
    ['operations[0]: name must be a string, got nothing', 'operations[0]: body does not parse at 1:8: Syntax Error: Expected Name, found <EOF>.'],
  ],
  [
    'a name that is not among several operations, one anonymous',
    operation('Other', 'query', '{ a }\nquery B { b }'),
    ['operations[0] (Other): body has no operation named "Other" (it has (anonymous), B)'],
  ],
  [
    'a bad id and a type that does not match: both reported',
    operation('AddUser', 'query', ADD_USER, sha256Hex(GET_USER)),
    [
      `operations[0] (AddUser): id ${sha256Hex(GET_USER)} is not the SHA-256 of body (which is ${sha256Hex(ADD_USER)})`,
      'operations[0] (AddUser): type is "query", but the operation "AddUser" in body is a mutation',
    ],
  ],
])('an operation with %s', (_label, entry, problems) => {
  expect(problemsOf(manifest([entry]))).toEqual(problems);
});

test('an anonymous operation is named by the empty string', () => {
  expect(readManifest(manifest([operation('', 'subscription', 'subscription { ticks }')]), 100)).toEqual([
    { hash: sha256Hex('subscription { ticks }'), name: '', type: 'subscription', body: 'subscription { ticks }' },
  ]);
});

test('a body of exactly maxQueryBytes is accepted; over it, the id is not checked', () => {
  const bytes = Buffer.byteLength(ADD_USER);
  expect(readManifest(manifest([operation('AddUser', 'mutation', ADD_USER)]), bytes)).toHaveLength(1);
  expect(problemsOf(manifest([operation('AddUser', 'mutation', ADD_USER, sha256Hex(GET_USER))]), bytes - 1)).toEqual([
    `operations[0] (AddUser): body is ${bytes} bytes; persisted queries may be at most ${bytes - 1} bytes`,
  ]);
});

test('a ManifestError is named and lists each problem on its own line', () => {
  const error = new ManifestError(['one', 'two']);
  expect(error.name).toBe('ManifestError');
  expect(error.message).toBe('the persisted query manifest was not accepted, nothing was registered:\n- one\n- two');
});
