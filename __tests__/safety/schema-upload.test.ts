/**
 * Schema uploads that used to crash or stall: a refused upload answers 400 with a message naming the limit
 * and the flag, never a stack overflow or a 500, and the schema active before keeps serving.
 */
import { activateSchema, gqlData, uploadSchema } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

const BAD_SCHEMA = { code: 'BAD_SCHEMA' };

const NOTES = `type Note { id: ID! text: String! @search(by: [hash]) }`;

const manyTypes = (count: number): string => Array.from({ length: count }, (_, i) => `type T${i} { id: ID! name: String }`).join('\n');

describe('with the default limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await activateSchema(server.url, NOTES);
    await gqlData(server.url, 'mutation { addNote(input: [{ text: "kept" }]) { numUids } }');
  });
  afterAll(() => server.close());

  const stillServing = async () => {
    expect(await gqlData(server.url, '{ queryNote { text } }')).toEqual({ queryNote: [{ text: 'kept' }] });
  };

  test('@search(by:) nested 5,000 deep is refused at the bracket past the limit', async () => {
    const schema = `type Deep {\n  id: ID!\n  name: String @search(by: ${'['.repeat(5000)}hash${']'.repeat(5000)})\n}`;
    const { status, body } = await uploadSchema(server.url, schema);
    expect(status).toBe(400);
    expect(body).toEqual({
      errors: [{ message: 'brackets nested more than 32 deep (the limit; raise it with --schema-max-depth)', locations: [{ line: 3, column: 58 }], extensions: BAD_SCHEMA }],
    });
    await stillServing();
  });

  test('a schema of 10,000 types is refused, before it is parsed, naming the limit and its flag', async () => {
    const { status, body } = await uploadSchema(server.url, manyTypes(10_000));
    expect(status).toBe(400);
    expect(body).toEqual({
      errors: [{ message: 'the schema has more than 500 types and interfaces (the limit; raise it with --schema-max-types)', extensions: BAD_SCHEMA }],
    });
    await stillServing();
  });

  test('@auth rules whose regexps RE2 cannot run are refused at upload, role rules included', async () => {
    const schema = [
      String.raw`type Doc @auth(query: { rule: "{ $EMAIL: { regexp: \"/(a)\\\\1/\" } }" }) { id: ID! label: String @search(by: [regexp]) }`,
      'type Memo @auth(query: { rule: """query { queryMemo(filter: { label: { regexp: "/a(?=b)/" } }) { __typename } }""" }) { id: ID! label: String @search(by: [regexp]) }',
    ].join('\n');
    const { status, body } = await uploadSchema(server.url, schema);
    expect(status).toBe(400);
    expect(body).toEqual({
      errors: [
        {
          message: String.raw`@auth query rule of Doc: role rule on $EMAIL: /(a)\1/ is not a regular expression RE2 can run: invalid escape sequence: ` + '`\\1`',
          locations: [{ line: 1, column: 6 }],
          extensions: BAD_SCHEMA,
        },
        {
          message: '@auth query rule of Memo: the @auth rule for Memo: Memo.label regexp: /a(?=b)/ is not a regular expression RE2 can run: invalid or unsupported Perl syntax: `(?=`',
          locations: [{ line: 2, column: 6 }],
          extensions: BAD_SCHEMA,
        },
      ],
    });
    await stillServing();
  });

  test('a schema over 1 MiB is refused before it is parsed', async () => {
    const schema = `${NOTES}\n# ${'x'.repeat(1024 * 1024)}`;
    const { status, body } = await uploadSchema(server.url, schema);
    expect(status).toBe(400);
    expect(body).toEqual({
      errors: [{ message: `the schema is ${Buffer.byteLength(schema)} bytes, more than the limit of 1048576 (raise it with --schema-max-bytes)`, extensions: BAD_SCHEMA }],
    });
    await stillServing();
  });
});

describe('with limits set by the app options (the --schema-max-* flags)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ schemaLimits: { maxTypes: 3, maxFields: 8, maxDepth: 4 } });
  });
  afterAll(() => server.close());

  test('a schema at the type limit is activated and served, one over it is refused', async () => {
    expect(await activateSchema(server.url, manyTypes(3))).toEqual(['T0', 'T1', 'T2']);
    expect(await gqlData(server.url, 'mutation { addT2(input: [{ name: "x" }]) { t2 { name } } }')).toEqual({ addT2: { t2: [{ name: 'x' }] } });

    const { status, body } = await uploadSchema(server.url, manyTypes(4));
    expect(status).toBe(400);
    expect(body).toEqual({ errors: [{ message: 'the schema has more than 3 types and interfaces (the limit; raise it with --schema-max-types)', extensions: BAD_SCHEMA }] });
    expect(await gqlData(server.url, '{ queryT2 { name } }')).toEqual({ queryT2: [{ name: 'x' }] });
  });

  test('fields and depth follow their own limits', async () => {
    const fields = await uploadSchema(server.url, 'type A { id: ID! a: String b: String c: String d: String }\ntype B { id: ID! a: String b: String c: String }');
    expect(fields.status).toBe(400);
    expect(fields.body).toEqual({ errors: [{ message: 'the schema has more than 8 fields (the limit; raise it with --schema-max-fields)', extensions: BAD_SCHEMA }] });

    const depth = await uploadSchema(server.url, 'type A { id: ID! a: String @search(by: [[[hash]]]) }');
    expect(depth.status).toBe(400);
    expect(depth.body).toEqual({ errors: [{ message: 'brackets nested more than 4 deep (the limit; raise it with --schema-max-depth)', locations: [{ line: 1, column: 42 }], extensions: BAD_SCHEMA }] });
  });

  test('types the text scan cannot place are counted exactly after the parse', async () => {
    // A type right after a scalar definition is not counted by the lexer pass (a lower bound).
    const schema = Array.from({ length: 4 }, (_, i) => `scalar S${i}\ntype U${i} { id: ID! }`).join('\n');
    const { status, body } = await uploadSchema(server.url, schema);
    expect(status).toBe(400);
    expect(body).toEqual({ errors: [{ message: 'the schema has 4 types and interfaces, more than the limit of 3 (raise it with --schema-max-types)', extensions: BAD_SCHEMA }] });
  });
});
