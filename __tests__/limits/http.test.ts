import { getIntrospectionQuery } from 'graphql';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { activateSchema, gql, gqlData, gqlGet } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASK_USER_SCHEMA } from '../fixtures/schemas';
import { loadLambda } from '../custom-e2e/lambda-upload';

/** Issue 12, item 1: operation limits over HTTP, as a client meets them. */

const GATEWAY_DEMO_SCHEMA = readFileSync(join(__dirname, '../../gateway-demo/schema.graphql'), 'utf8');
const COST_HINT = 'a list counts its first argument, 1000 without it, and multiplies what it selects: pass smaller first values';

const notChain = (levels: number, inner = '{ completed: true }') => `${'{ not: '.repeat(levels - 1)}${inner}${' }'.repeat(levels - 1)}`;
const notValue = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { completed: true };
  for (let i = 1; i < levels; i++) value = { not: value };
  return value;
};

describe('default limits', () => {
  let missions: TestServer;
  let tasks: TestServer;

  beforeAll(async () => {
    missions = await startTestServer();
    await activateSchema(missions.url, GATEWAY_DEMO_SCHEMA);
    await gqlData(missions.url, 'mutation { addAstronaut(input: [{ id: "a1" }]) { numUids } }');
    await gqlData(missions.url, 'mutation { addMission(input: [{ designation: "Gemini 8", crew: [{ id: "a1" }] }, { designation: "Apollo 11", crew: [{ id: "a1" }] }]) { numUids } }');
    tasks = await startTestServer();
    await activateSchema(tasks.url, TASK_USER_SCHEMA);
  });

  afterAll(async () => {
    await missions.close();
    await tasks.close();
  });

  test('the hostile query (20 nested crew { missions } pairs) is refused before it runs', async () => {
    let selection = 'designation';
    for (let i = 0; i < 20; i++) selection = `crew { missions { ${selection} } }`;
    const { status, body } = await gql(missions.url, `{ queryMission { ${selection} } }`);
    expect(status).toBe(400);
    expect(body).toEqual({
      errors: [{
        message: `the estimated cost of the anonymous query is 1.0e+123 objects, over the limit 10000000000 (${COST_HINT}); raise it with --max-cost or MAX_COST`,
        locations: [{ line: 1, column: 1 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxCost' },
      }],
    });
  });

  test('the same nesting with first: 1 everywhere is cheap and runs', async () => {
    let selection = 'designation';
    for (let i = 0; i < 20; i++) selection = `crew(first: 1) { missions(first: 1) { ${selection} } }`;
    const { status, body } = await gql(missions.url, `{ queryMission(first: 1, order: { asc: designation }) { ${selection} } }`);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
  });

  test('a cost that depends on variables is checked with their values', async () => {
    const query = 'query($n: Int) { queryMission(first: $n) { crew(first: $n) { missions(first: $n) { crew(first: $n) { id } } } } }';
    const big = await gql(missions.url, query, { n: 1000 });
    expect(big.status).toBe(400);
    expect(big.body.errors).toEqual([{
      message: `the estimated cost of the anonymous query is 1001001001000 objects, over the limit 10000000000 (${COST_HINT}); raise it with --max-cost or MAX_COST`,
      locations: [{ line: 1, column: 1 }],
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxCost' },
    }]);
    const small = await gql(missions.url, query, { n: 10 });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
    // Without the variable the page size applies: 4 nested unpaged lists.
    const unset = await gql(missions.url, query, {});
    expect(unset.status).toBe(400);
    expect(unset.body.errors?.[0]?.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxCost' });
  });

  test("a gateway's _entities batch with an unpaged list under each runs", async () => {
    const representations = Array.from({ length: 1000 }, (_, index) => ({ __typename: 'Astronaut', id: index === 0 ? 'a1' : `x${index}` }));
    const { status, body } = await gql(missions.url, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Astronaut { missions { designation } } } }', { r: representations });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect((body.data?._entities as unknown[])[0]).toEqual({ missions: expect.arrayContaining([{ designation: 'Gemini 8' }, { designation: 'Apollo 11' }]) });
  });

  test("the README's queries and a paged nest run", async () => {
    await gqlData(tasks.url, 'mutation { addUser(input: [{ username: "alice@example.com", name: "Alice", tasks: [{ title: "Write the report", completed: false }, { title: "Book a room", completed: true }] }]) { numUids user { username tasks { title } } } }');
    const open = await gqlData(tasks.url, '{ queryTask(filter: { completed: false }, order: { asc: title }) { title completed user { username } } }');
    expect(open.queryTask).toEqual([{ title: 'Write the report', completed: false, user: { username: 'alice@example.com' } }]);
    const paged = await gqlData(tasks.url, '{ queryUser(first: 100) { tasks(first: 10, order: { asc: title }) { title } } }');
    expect(paged.queryUser).toEqual([{ tasks: [{ title: 'Book a room' }, { title: 'Write the report' }] }]);
  });

  test('the introspection query runs', async () => {
    const { status, body } = await gql(tasks.url, getIntrospectionQuery());
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
  });

  test('a filter nested not 100 deep is refused with the input depth found', async () => {
    const { status, body } = await gql(tasks.url, `{ queryTask(filter: ${notChain(100)}) { title } }`);
    expect(status).toBe(400);
    expect(body.errors).toEqual([{
      message: 'the nesting of objects and lists in this value is 100, over the limit 32; raise it with --max-input-depth or MAX_INPUT_DEPTH',
      locations: [{ line: 1, column: 21 }],
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxInputDepth' },
    }]);
  });

  test('a filter nested not 1,000 deep is refused before parsing, naming the nesting limit', async () => {
    const { status, body } = await gql(tasks.url, `{ queryTask(filter: ${notChain(1000)}) { title } }`);
    expect(status).toBe(400);
    expect(body.errors).toEqual([{
      message: 'the nesting of brackets { [ ( in the operation text is 1002, over the limit 500; raise it with --max-nesting or MAX_NESTING',
      locations: [{ line: 1, column: 3507 }],
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxNesting' },
    }]);
  });

  test('and/or chains as deep as that are refused the same way', async () => {
    const chain = `${'{ and: [{ or: ['.repeat(300)}{ completed: true }${'] }] }'.repeat(300)}`;
    const { status, body } = await gql(tasks.url, `{ queryTask(filter: ${chain}) { title } }`);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.message).toBe('the nesting of brackets { [ ( in the operation text is 1203, over the limit 500; raise it with --max-nesting or MAX_NESTING');
  });

  test('a variable nested not 1,000 deep is refused with BAD_USER_INPUT, naming the variable', async () => {
    const { status, body } = await gql(tasks.url, 'query($f: TaskFilter) { queryTask(filter: $f) { title } }', { f: notValue(1000) });
    expect(status).toBe(400);
    expect(body.errors).toEqual([{
      message: 'the nesting of objects and lists in variable $f is 1000, over the limit 32; raise it with --max-input-depth or MAX_INPUT_DEPTH',
      extensions: { code: 'BAD_USER_INPUT', limit: 'maxInputDepth' },
    }]);
  });

  test('a variable nested 100,000 deep (beyond what a recursive walk survives) is refused the same way', async () => {
    const body = `{"query":"query($f: TaskFilter) { queryTask(filter: $f) { title } }","variables":{"f":${'{"not":'.repeat(100_000)}{}${'}'.repeat(100_000)}}}`;
    const response = await fetch(`${tasks.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [{
        message: 'the nesting of objects and lists in variable $f is 100001, over the limit 32; raise it with --max-input-depth or MAX_INPUT_DEPTH',
        extensions: { code: 'BAD_USER_INPUT', limit: 'maxInputDepth' },
      }],
    });
  });

  test('an operation of more tokens than the limit is refused before parsing', async () => {
    const { status, body } = await gql(tasks.url, `{ ${'__typename '.repeat(15_000)}}`);
    expect(status).toBe(400);
    expect(body.errors).toEqual([{
      message: 'the number of tokens in the operation is more than 15000, over the limit 15000; raise it with --max-tokens or MAX_TOKENS',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxTokens' },
    }]);
  });
});

describe('limits set by the operator (the --max-* flags)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ limits: { maxDepth: 2, maxAliases: 1, maxDirectives: 1, maxCost: 50, maxTokens: 40, maxNesting: 6, maxInputDepth: 2 } });
    await activateSchema(server.url, TASK_USER_SCHEMA);
  });

  afterAll(async () => {
    await server.close();
  });

  test.each<[string, string, string, string]>([
    ['depth', '{ queryTask(first: 1) { user { tasks(first: 1) { title } } } }', 'the depth of the anonymous query is 4, over the limit 2; raise it with --max-depth or MAX_DEPTH', 'maxDepth'],
    ['aliases', '{ a: queryTask(first: 1) { title } b: queryTask(first: 1) { title } }', 'the number of aliases in the anonymous query is 2, over the limit 1; raise it with --max-aliases or MAX_ALIASES', 'maxAliases'],
    ['directives', '{ queryTask(first: 1) { title @include(if: true) completed @skip(if: false) } }', 'the number of directives in the anonymous query is 2, over the limit 1; raise it with --max-directives or MAX_DIRECTIVES', 'maxDirectives'],
    ['cost', '{ queryTask(first: 51) { title } }', 'the estimated cost of the anonymous query is 51 objects, over the limit 50 (a list counts its first argument, 1000 without it, and multiplies what it selects: pass smaller first values); raise it with --max-cost or MAX_COST', 'maxCost'],
    ['input depth', '{ queryTask(first: 1, filter: { not: { not: { completed: true } } }) { title } }', 'the nesting of objects and lists in this value is 3, over the limit 2; raise it with --max-input-depth or MAX_INPUT_DEPTH', 'maxInputDepth'],
  ])('%s', async (_name, query, message, limit) => {
    const { status, body } = await gql(server.url, query);
    expect(status).toBe(400);
    expect(body.errors?.map((error) => ({ message: error.message, extensions: error.extensions }))).toEqual([{ message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit } }]);
  });

  test('tokens and nesting', async () => {
    const tokens = await gql(server.url, `{ ${'__typename '.repeat(40)}}`);
    expect([tokens.status, tokens.body.errors?.[0]?.message]).toEqual([400, 'the number of tokens in the operation is more than 40, over the limit 40; raise it with --max-tokens or MAX_TOKENS']);
    const nesting = await gql(server.url, '{ queryTask(first: 1, filter: { and: [{ and: [{ completed: true }] }] }) { title } }');
    expect([nesting.status, nesting.body.errors?.[0]?.message]).toEqual([400, 'the nesting of brackets { [ ( in the operation text is 7, over the limit 6; raise it with --max-nesting or MAX_NESTING']);
  });

  test('within them, requests run', async () => {
    expect(await gqlData(server.url, '{ queryTask(first: 5, filter: { not: { completed: true } }) { title } }')).toEqual({ queryTask: [] });
  });
});

describe('a query found by hash (registered by an administrator) meets the same limits', () => {
  let server: TestServer;
  const long = `query Long { ${'__typename '.repeat(50)}}`;
  const deep = 'query Deep { queryTask(first: 1) { user { tasks(first: 1) { title } } } }';
  const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

  beforeAll(async () => {
    server = await startTestServer({ limits: { maxTokens: 40, maxDepth: 2 } });
    await activateSchema(server.url, TASK_USER_SCHEMA);
    const manifest = {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [long, deep].map((body) => ({ id: hashOf(body), name: body.split(' ')[1], type: 'query', body })),
    };
    const upload = await fetch(`${server.url}/admin/persisted-queries`, { method: 'POST', body: JSON.stringify(manifest) });
    expect(upload.status).toBe(200);
  });

  afterAll(async () => {
    await server.close();
  });

  const byHash = (text: string) => gqlGet(server.url, { extensions: { persistedQuery: { version: 1, sha256Hash: hashOf(text) } } });

  test('too many tokens: the parser stops and the refusal names the flag', async () => {
    const { status, body } = await byHash(long);
    expect(status).toBe(400);
    expect(body.errors).toEqual([{
      message: 'the number of tokens in the operation is more than 40, over the limit 40; raise it with --max-tokens or MAX_TOKENS',
      locations: [{ line: 1, column: 421 }],
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    }]);
  });

  test('too deep: the validation rules apply', async () => {
    const { status, body } = await byHash(deep);
    expect(status).toBe(400);
    expect(body.errors?.map((error) => error.message)).toEqual(['the depth of query Deep is 4, over the limit 2; raise it with --max-depth or MAX_DEPTH']);
  });
});

describe('at the highest limits the flags accept, nothing overflows the stack', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ limits: { maxNesting: 1000, maxInputDepth: 128, maxDepth: 1000 } });
    await activateSchema(server.url, TASK_USER_SCHEMA);
    await gqlData(server.url, 'mutation { addTask(input: [{ title: "deep", completed: false, user: { username: "u" } }]) { numUids } }');
  });

  afterAll(async () => {
    await server.close();
  });

  test('a not chain 128 deep as a literal and as a variable runs through coercion, filter compilation and the store', async () => {
    // 127 nots around { completed: true }: odd, so it selects the tasks that are not completed.
    const literal = await gql(server.url, `{ queryTask(filter: ${notChain(128)}) { title } }`);
    expect(literal.body).toEqual({ data: { queryTask: [{ title: 'deep' }] } });
    const variable = await gql(server.url, 'query($f: TaskFilter) { queryTask(filter: $f) { title } }', { f: notValue(128) });
    expect(variable.body).toEqual({ data: { queryTask: [{ title: 'deep' }] } });
  });

  test('a literal nested 990 deep parses and is refused by the input depth rule, not by a stack overflow', async () => {
    const { status, body } = await gql(server.url, `{ queryTask(filter: ${notChain(990)}) { title } }`);
    expect(status).toBe(400);
    expect(body.errors?.map((error) => error.message)).toEqual([
      'the nesting of objects and lists in this value is 990, over the limit 128; raise it with --max-input-depth or MAX_INPUT_DEPTH',
    ]);
  });

  test('a selection 499 levels deep is validated and runs', async () => {
    let selection = 'title';
    for (let i = 0; i < 249; i++) selection = `user { tasks(first: 1) { ${selection} } }`;
    const { status, body } = await gql(server.url, `{ queryTask(first: 1) { ${selection} } }`);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
  });
  test('a selection 999 levels deep through a chain of fragments is validated and runs', async () => {
    const fragments = Array.from({ length: 499 }, (_, i) =>
      `fragment T${i} on Task { user { tasks(first: 1) { ${i === 498 ? 'title' : `...T${i + 1}`} } } }`).join('\n');
    const { status, body } = await gql(server.url, `{ queryTask(first: 1) { ...T0 } }\n${fragments}`);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
  });
});

describe("a lambda's graphql() follows the same limits", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await activateSchema(server.url, `${TASK_USER_SCHEMA}\ntype Query {\n  deepFromLambda: String @lambda\n}\n`);
    await loadLambda(server.url, `
      self.addGraphQLResolvers({
        'Query.deepFromLambda': async ({ graphql }) => {
          const answer = await graphql('{ queryUser { tasks { user { tasks { user { tasks { title } } } } } } }');
          return JSON.stringify(answer.errors.map((error) => [error.message, error.extensions.code]));
        },
      });
    `);
  });

  afterAll(async () => {
    await server.close();
  });

  test('its expensive query is refused with the limit named', async () => {
    const data = await gqlData(server.url, '{ deepFromLambda }');
    expect(JSON.parse(data.deepFromLambda)).toEqual([[
      `the estimated cost of the anonymous query is 1002002001000 objects, over the limit 10000000000 (${COST_HINT}); raise it with --max-cost or MAX_COST`,
      'GRAPHQL_VALIDATION_FAILED',
    ]]);
  });
});
