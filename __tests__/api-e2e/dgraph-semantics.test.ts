import { pluck, useService } from './harness';

/**
 * Query semantics that follow Dgraph's documentation, over HTTP, against fixed tables: nulls last in both
 * sort directions, term tokens on Unicode word boundaries, the regexp flag rules, DateTime validation and
 * null operands (README "Coming from Dgraph").
 */
const SCHEMA = `
type Task {
  id: ID!
  name: String! @id
  text: String @search(by: [term])
  body: String @search(by: [fulltext])
  code: String @search(by: [regexp])
  priority: Int @search
  due: DateTime @search
  tags: [String] @search(by: [hash])
  owner: User
}

type User {
  id: ID!
  username: String! @id
  tasks: [Task] @hasInverse(field: owner)
}

interface Labelled {
  label: String @search(by: [exact])
}

type Poster implements Labelled {
  id: ID!
}

type Sticker implements Labelled {
  id: ID!
}

type Club {
  id: ID!
  name: String! @id
  rank: Int @search
  members: [Member] @hasInverse(field: club)
}

type Member {
  id: ID!
  nick: String! @id
  level: Int @search
  club: Club
  badges: [Badge] @hasInverse(field: holder)
}

type Badge {
  id: ID!
  holder: Member
}

type Dot {
  id: ID!
  n: Int
}
`;

const api = useService(SCHEMA);

beforeAll(async () => {
  // Created in name order, so ids (the tie-break of every order) follow names.
  for (const task of [
    '{ name: "t1", priority: 3, text: "Don\'t panic", body: "Connections failing", code: "ABC-1", due: "2026-01-10T00:00:00Z", tags: ["x"], owner: { username: "ann" } }',
    '{ name: "t2", text: "don t stop", code: "xyz", owner: { username: "ann" } }',
    '{ name: "t3", priority: 1, text: "see example.com", code: "abc", due: "2026-03-01", tags: ["y"], owner: { username: "ann" } }',
    '{ name: "t4", priority: 2, text: "pi is 3.14", code: "b", due: "2026-02-01T10:00:00+02:00", owner: { username: "ann" } }',
    '{ name: "t5", text: "an example of it", tags: [] }',
    '{ name: "t6", priority: 1, text: "the end", owner: { username: "ann" } }',
  ]) {
    await api.data(`mutation { addTask(input: [${task}]) { numUids } }`);
  }
  await api.data(`mutation {
    addPoster(input: [{ label: "b" }, {}]) { numUids }
    addSticker(input: [{ label: "a" }, { label: "c" }, {}]) { numUids }
    addClub(input: [
      { name: "c1", rank: 2, members: [
        { nick: "m1", level: 1, badges: [{}] },
        { nick: "m4", level: 5, badges: [{}] },
        { nick: "m5", badges: [{}] },
        { nick: "m6", level: 3 }
      ] },
      { name: "c2", members: [{ nick: "m2" }] },
      { name: "c3", rank: 1, members: [{ nick: "m3" }] },
      { name: "c4", rank: 0 }
    ]) { numUids }
  }`);
});

async function names(filter: string, rest = 'order: { asc: name }'): Promise<string[]> {
  return pluck((await api.data(`{ queryTask(filter: ${filter}, ${rest}) { name } }`)).queryTask, 'name');
}

async function errorOf(query: string, variables?: Record<string, unknown>): Promise<{ message: string; code: unknown }[]> {
  const body = await api.raw(query, variables);
  return (body.errors ?? []).map((error) => ({ message: error.message, code: error.extensions?.code }));
}

describe('order: objects without a value come last in both directions', () => {
  test.each<[string, string]>([
    ['order: { asc: priority }', 't3 t6 t4 t1 t2 t5'],
    ['order: { desc: priority }', 't1 t4 t3 t6 t2 t5'],
    ['order: { asc: priority }, first: 2', 't3 t6'],
    ['order: { desc: priority }, first: 2', 't1 t4'],
    ['order: { asc: priority }, first: 3, offset: 3', 't1 t2 t5'],
    ['order: { desc: priority }, first: 2, offset: 4', 't2 t5'],
    ['order: { asc: due }, first: 4', 't1 t4 t3 t2'],
    ['order: { desc: due }', 't3 t4 t1 t2 t5 t6'],
    ['order: { asc: priority, then: { desc: name } }', 't6 t3 t4 t1 t5 t2'],
  ])('queryTask(%s)', async (args, expected) => {
    expect(pluck((await api.data(`{ queryTask(${args}) { name } }`)).queryTask, 'name')).toEqual(expected.split(' '));
  });

  test.each<[string, Array<string | null>]>([
    ['order: { asc: label }', ['a', 'b', 'c', null, null]],
    ['order: { desc: label }', ['c', 'b', 'a', null, null]],
    ['order: { asc: label }, first: 4', ['a', 'b', 'c', null]],
    ['order: { desc: label }, first: 2, offset: 2', ['a', null]],
  ])('an interface over two collections, queryLabelled(%s)', async (args, expected) => {
    expect(pluck((await api.data(`{ queryLabelled(${args}) { label } }`)).queryLabelled, 'label')).toEqual(expected);
  });

  test.each<[string, string]>([
    ['order: { asc: rank }', 'c3 c1 c2'],
    ['order: { desc: rank }', 'c1 c3 c2'],
    ['order: { asc: rank }, first: 2, offset: 1', 'c1 c2'],
  ])('a filter that joins another collection (has on a derived relation), queryClub(%s)', async (args, expected) => {
    expect(pluck((await api.data(`{ queryClub(filter: { has: members }, ${args}) { name } }`)).queryClub, 'name')).toEqual(expected.split(' '));
  });

  test.each<[string, string]>([
    ['order: { asc: level }', 'm1 m4 m5'],
    ['order: { desc: level }', 'm4 m1 m5'],
    ['order: { asc: level }, first: 1, offset: 2', 'm5'],
  ])('a relation whose filter joins another collection, Club.members(filter: { has: badges }, %s)', async (args, expected) => {
    const result = await api.data(`{ getClub(name: "c1") { members(filter: { has: badges }, ${args}) { nick } } }`);
    expect(pluck(result.getClub.members, 'nick')).toEqual(expected.split(' '));
  });

  test.each<[string, string]>([
    ['order: { asc: priority }', 't3 t6 t4 t1 t2'],
    ['order: { desc: priority }, first: 4', 't1 t4 t3 t6'],
    ['order: { asc: priority }, first: 2, offset: 3', 't1 t2'],
  ])('a relation, User.tasks(%s)', async (args, expected) => {
    const result = await api.data(`{ getUser(username: "ann") { tasks(${args}) { name } } }`);
    expect(pluck(result.getUser.tasks, 'name')).toEqual(expected.split(' '));
  });
});

describe('term tokens on Unicode word boundaries', () => {
  test.each<[string, string[]]>([
    [`{ text: { allofterms: "don't" } }`, ['t1']],
    [`{ text: { allofterms: "DON'T panic" } }`, ['t1']],
    ['{ text: { allofterms: "don t" } }', ['t2']],
    ['{ text: { anyofterms: "example" } }', ['t5']],
    ['{ text: { anyofterms: "example.com" } }', ['t3']],
    ['{ text: { anyofterms: "com" } }', []],
    ['{ text: { allofterms: "14" } }', []],
    ['{ text: { allofterms: "3.14" } }', ['t4']],
    ['{ text: { anyofterms: "3.14, example.com" } }', ['t3', 't4']],
    ['{ body: { anyoftext: "connected" } }', ['t1']],
  ])('%s', async (filter, expected) => {
    expect(await names(filter)).toEqual(expected);
  });
});

describe('regexp: /pattern/ or /pattern/i only', () => {
  test.each<[string, string[]]>([
    ['/abc/', ['t3']],
    ['/abc/i', ['t1', 't3']],
    ['/^[a-z]+$/', ['t2', 't3', 't4']],
    // Too broad for a trigram index, which a GraphQL filter does not use in Dgraph either: accepted.
    ['/b/', ['t3', 't4']],
    ['/./', ['t1', 't2', 't3', 't4']],
  ])('%s matches', async (pattern, expected) => {
    expect(await names(`{ code: { regexp: "${pattern}" } }`)).toEqual(expected);
  });

  test.each<[string, string]>([
    ['/abc/g', 'Task.code regexp: flag "g" is not allowed (the only flag is i, for case-insensitive)'],
    ['/abc/m', 'Task.code regexp: flag "m" is not allowed (the only flag is i, for case-insensitive)'],
    ['/abc/ii', 'Task.code regexp: flag "i" is given twice'],
    ['//', 'Task.code regexp: the pattern is empty'],
    ['abc', 'Task.code regexp: expected a regular expression written /pattern/ or /pattern/i, got "abc"'],
  ])('%s is refused', async (pattern, message) => {
    expect(await errorOf(`{ queryTask(filter: { code: { regexp: "${pattern}" } }) { name } }`)).toEqual([{ message, code: 'BAD_USER_INPUT' }]);
  });
});

describe('DateTime: Dgraph\'s forms, impossible dates refused', () => {
  test.each<[string, string]>([
    ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00Z'],
    ['2026-01-31T13:30:00+01:30', '2026-01-31T12:00:00Z'],
    ['2026-01-31T12:00:00', '2026-01-31T12:00:00Z'],
    ['2024-02-29', '2024-02-29T00:00:00Z'],
    ['2026-07', '2026-07-01T00:00:00Z'],
    // As Dgraph answers (Go's time.RFC3339): whole seconds; the stored value keeps the fraction.
    ['2026-01-31T12:00:00.250Z', '2026-01-31T12:00:00Z'],
  ])('%s is answered as %s', async (due, stored) => {
    const result = await api.data('mutation ($due: DateTime) { updateTask(input: { filter: { name: { eq: "t6" } }, set: { due: $due } }) { task { due } } }', { due });
    expect(result.updateTask.task).toEqual([{ due: stored }]);
  });

  test.each<[string, string]>([
    ['2026-02-30', 'day 30 is out of range (01-28 in 2026-02)'],
    ['2026-01-01T24:00:00Z', 'hour 24 is out of range (00-23)'],
    ['2026-01-01T12:00:60Z', 'second 60 is out of range (00-59)'],
    ['2026-13-01', 'month 13 is out of range (01-12)'],
  ])('%s is refused with BAD_USER_INPUT in a variable, in a mutation and in a filter', async (due, problem) => {
    const coercion = `DateTime cannot represent ${JSON.stringify(due)}: ${problem}`;
    const mutation = await errorOf('mutation ($due: DateTime) { addTask(input: [{ name: "bad", due: $due }]) { numUids } }', { due });
    expect(mutation).toEqual([{ message: `Variable "$due" got invalid value ${JSON.stringify(due)}; ${coercion}`, code: 'BAD_USER_INPUT' }]);
    const filter = await errorOf('query ($due: DateTime) { queryTask(filter: { due: { ge: $due } }) { name } }', { due });
    expect(filter).toEqual([{ message: `Variable "$due" got invalid value ${JSON.stringify(due)}; ${coercion}`, code: 'BAD_USER_INPUT' }]);
    expect(await names('{ name: { eq: "bad" } }')).toEqual([]);
  });

  test('an impossible date written in the query fails validation', async () => {
    expect(await errorOf('{ queryTask(filter: { due: { ge: "2026-02-30" } }) { name } }')).toEqual([
      { message: 'DateTime cannot represent "2026-02-30": day 30 is out of range (01-28 in 2026-02)', code: 'GRAPHQL_VALIDATION_FAILED' },
    ]);
  });
});

describe('null operands', () => {
  test.each<[string, string[]]>([
    ['{ priority: { eq: null } }', ['t2', 't5']],
    ['{ priority: { in: [null] } }', ['t2', 't5']],
    ['{ priority: { in: [null, 3] } }', ['t1', 't2', 't5']],
    ['{ tags: { eq: null } }', ['t2', 't4', 't5', 't6']],
    ['{ tags: { in: [null, "y"] } }', ['t2', 't3', 't4', 't5', 't6']],
    ['{ not: { priority: { eq: null } } }', ['t1', 't3', 't4', 't6']],
    ['{ priority: { lt: null } }', ['t1', 't2', 't3', 't4', 't5', 't6']],
    ['{ priority: null }', ['t1', 't2', 't3', 't4', 't5', 't6']],
  ])('%s', async (filter, expected) => {
    expect(await names(filter)).toEqual(expected);
  });

  test('eq given null through a variable', async () => {
    const result = await api.data('query ($p: Int) { queryTask(filter: { priority: { eq: $p } }, order: { asc: name }) { name } }', { p: null });
    expect(pluck(result.queryTask, 'name')).toEqual(['t2', 't5']);
  });
});

describe('default page size', () => {
  test('a list without first returns at most 1000 objects (a safety limit where Dgraph returns all); first asks for more', async () => {
    const input = Array.from({ length: 1001 }, (_, n) => ({ n }));
    expect((await api.data('mutation ($input: [AddDotInput!]!) { addDot(input: $input) { numUids } }', { input })).addDot.numUids).toBe(1001);
    const result = await api.data('{ all: queryDot { n } more: queryDot(first: 1001) { n } aggregateDot { count } }');
    expect(result.all).toHaveLength(1000);
    expect(pluck(result.all, 'n')).toEqual(input.slice(0, 1000).map((dot) => dot.n));
    expect(result.more).toHaveLength(1001);
    expect(result.aggregateDot).toEqual({ count: 1001 });
  });
});
