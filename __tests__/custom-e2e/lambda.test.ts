import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/** Issue 7: @lambda fields on types, custom queries and mutations, over HTTP against the real service. */

const SCHEMA = `
type Author {
  id: ID!
  name: String! @search(by: [hash, term])
  posts: [Post] @hasInverse(field: author)
  reputation: Int @lambda
  greeting(prefix: String!): String @lambda
  parentKeys: [String] @lambda
}

type Post {
  id: ID!
  title: String! @search(by: [term])
  author: Author
  words: Int @lambda
}

type Query {
  echo(text: String!): String @lambda
  postTitles: [String] @lambda
  authorsByName(names: [String!]!): [Author] @lambda
  batchLog: [String] @lambda
  boom: String @lambda
  spin: String @lambda
  spinLater(tag: String!): String @lambda
  waitForSpin(tag: String!): String @lambda
  reachProcess: String @lambda
  reachRequire: String @lambda
  reachThroughConstructor: String @lambda
  notAList: [String] @lambda
}

type Mutation {
  newAuthor(name: String!): Author @lambda
}
`;

const SCRIPT = `
const batches = [];
const spinsStarted = new Set();
const nap = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function authorsByName({ args, graphql }) {
  const answer = await graphql(
    'query($names: [String]) { queryAuthor(filter: { name: { in: $names } }, order: { asc: name }) { id name } }',
    { names: args.names },
  );
  if (answer.errors) throw new Error('graphql() answered errors: ' + JSON.stringify(answer.errors));
  return answer.data.queryAuthor;
}

self.addGraphQLResolvers({
  'Author.greeting': ({ parent, args }) => args.prefix + ' ' + parent.name + ' (' + parent.id + ')',
  'Author.parentKeys': ({ parent }) => Object.keys(parent).sort(),
  'Query.echo': ({ args }) => 'echo: ' + args.text,
  'Query.postTitles': async ({ graphql }) => {
    const answer = await graphql('{ queryPost(order: { asc: title }) { title } }');
    return answer.data.queryPost.map((post) => post.title);
  },
  'Query.authorsByName': authorsByName,
  'Query.batchLog': () => batches.splice(0),
  'Query.boom': () => { throw new Error('kaboom from the script'); },
  'Query.spin': () => { for (;;) {} },
  'Query.spinLater': async ({ args }) => { spinsStarted.add(args.tag); await null; for (;;) {} },
  'Query.waitForSpin': async ({ args }) => {
    while (!spinsStarted.has(args.tag)) await nap(5);
    return 'saw ' + args.tag + ' start';
  },
  'Query.reachProcess': () => String(process.pid),
  'Query.reachRequire': () => require('fs').readFileSync('/etc/hostname', 'utf8'),
  'Query.reachThroughConstructor': () => String((function () {}).constructor('return process')().pid),
  'Query.notAList': () => 'just a string',
  'Mutation.newAuthor': async ({ args, graphql }) => {
    const answer = await graphql('mutation($name: String!) { addAuthor(input: [{ name: $name }]) { author { id name } } }', { name: args.name });
    return answer.data.addAuthor.author[0];
  },
});

self.addMultiParentGraphQLResolvers({
  'Author.reputation': ({ parents }) => {
    batches.push('Author.reputation:' + parents.length);
    return parents.map((author) => author.name.length * 10);
  },
  'Post.words': ({ parents }) => {
    batches.push('Post.words:' + parents.length);
    return parents.map((post) => post.title.split(' ').length);
  },
});
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ lambdaTimeoutMs: 1000 });
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, SCRIPT);
  const { body } = await gql(server.url, `mutation {
    addAuthor(input: [
      { name: "Ada", posts: [{ title: "Notes on the engine" }, { title: "Bernoulli numbers" }] },
      { name: "Grace", posts: [{ title: "Compilers" }, { title: "A nanosecond of wire" }] },
      { name: "Edsger", posts: [{ title: "Go to considered harmful" }, { title: "Shortest paths" }] }
    ]) { numUids }
  }`);
  expect(body.errors).toBeUndefined();
});

afterAll(() => server.close());

test('a lambda field on a type sees the stored object as parent, with its id, and its arguments', async () => {
  const { body } = await gql(server.url, `{ queryAuthor(filter: { name: { eq: "Ada" } }) { id greeting(prefix: "Hello") parentKeys } }`);
  expect(body.errors).toBeUndefined();
  const [ada] = body.data!.queryAuthor;
  expect(ada.greeting).toBe(`Hello Ada (${ada.id})`);
  // The service's own bookkeeping (_id, search terms) stays out of the parent.
  expect(ada.parentKeys).toEqual(['id', 'name']);
});

test('a lambda query answers, and can call graphql() against the service', async () => {
  const { body } = await gql(server.url, `{ echo(text: "hi") postTitles }`);
  expect(body.errors).toBeUndefined();
  expect(body.data).toEqual({
    echo: 'echo: hi',
    postTitles: ['A nanosecond of wire', 'Bernoulli numbers', 'Compilers', 'Go to considered harmful', 'Notes on the engine', 'Shortest paths'],
  });
});

test('objects a lambda query returns resolve their own fields: stored relations and further lambdas', async () => {
  const { body } = await gql(server.url, `{ authorsByName(names: ["Grace", "Ada"]) { name reputation posts(order: { asc: title }) { title } } }`);
  expect(body.errors).toBeUndefined();
  expect(body.data!.authorsByName).toEqual([
    { name: 'Ada', reputation: 30, posts: [{ title: 'Bernoulli numbers' }, { title: 'Notes on the engine' }] },
    { name: 'Grace', reputation: 50, posts: [{ title: 'A nanosecond of wire' }, { title: 'Compilers' }] },
  ]);
});

test('a lambda mutation runs (here through graphql()) and its result is an object of the schema', async () => {
  const { body } = await gql(server.url, `mutation { newAuthor(name: "Barbara") { id name reputation } }`);
  expect(body.errors).toBeUndefined();
  expect(body.data!.newAuthor).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Barbara', reputation: 70 });
  const check = await gql(server.url, `query($id: ID!) { getAuthor(id: $id) { name } }`, { id: body.data!.newAuthor.id });
  expect(check.body.data).toEqual({ getAuthor: { name: 'Barbara' } });
  await gql(server.url, `mutation { deleteAuthor(filter: { name: { eq: "Barbara" } }) { numUids } }`);
});

test('a multi-parent lambda is called once per level, with every parent of the level', async () => {
  await gql(server.url, '{ batchLog }');
  const { body } = await gql(server.url, `{ queryAuthor(order: { asc: name }) { name reputation posts(order: { asc: title }) { title words } } }`);
  expect(body.errors).toBeUndefined();
  expect(body.data!.queryAuthor).toEqual([
    { name: 'Ada', reputation: 30, posts: [{ title: 'Bernoulli numbers', words: 2 }, { title: 'Notes on the engine', words: 4 }] },
    { name: 'Edsger', reputation: 60, posts: [{ title: 'Go to considered harmful', words: 4 }, { title: 'Shortest paths', words: 2 }] },
    { name: 'Grace', reputation: 50, posts: [{ title: 'A nanosecond of wire', words: 4 }, { title: 'Compilers', words: 1 }] },
  ]);
  const log = await gql(server.url, '{ batchLog }');
  expect(log.body.data!.batchLog).toEqual(['Author.reputation:3', 'Post.words:6']);
});

test('a throwing lambda fails its own field only', async () => {
  const { status, body } = await gql(server.url, `{ boom echo(text: "still here") queryAuthor(filter: { name: { eq: "Ada" } }) { name } }`);
  expect(status).toBe(200);
  expect(body.data).toEqual({ boom: null, echo: 'echo: still here', queryAuthor: [{ name: 'Ada' }] });
  expect(body.errors).toEqual([
    expect.objectContaining({
      message: 'Lambda resolver Query.boom failed: kaboom from the script',
      path: ['boom'],
      extensions: expect.objectContaining({ code: 'LAMBDA_FAILED', failure: 'thrown' }),
    }),
  ]);
});

test('an endless loop hits the time limit and fails its field only; the next request is served normally', async () => {
  const { status, body } = await gql(server.url, `{ spin echo(text: "same request") queryAuthor(filter: { name: { eq: "Grace" } }) { name } }`);
  expect(status).toBe(200);
  expect(body.data).toEqual({ spin: null, echo: 'echo: same request', queryAuthor: [{ name: 'Grace' }] });
  expect(body.errors).toEqual([
    expect.objectContaining({
      message: 'Lambda resolver Query.spin failed: it did not finish within 1000 ms',
      path: ['spin'],
      extensions: expect.objectContaining({ code: 'LAMBDA_FAILED', failure: 'timeout' }),
    }),
  ]);

  const next = await gql(server.url, `{ echo(text: "after the loop") queryAuthor(filter: { name: { eq: "Ada" } }) { reputation } }`);
  expect(next.body).toEqual({ data: { echo: 'echo: after the loop', queryAuthor: [{ reputation: 30 }] } });
});

test('a request served while another request\'s lambda loops after an await gets its answer', async () => {
  // waitForSpin is in flight until spinLater has started its loop (in whichever order the two arrive).
  const [waiting, spinning] = await Promise.all([
    gql(server.url, `{ waitForSpin(tag: "concurrent") }`),
    gql(server.url, `{ spinLater(tag: "concurrent") }`),
  ]);
  expect(waiting.body).toEqual({ data: { waitForSpin: 'saw concurrent start' } });
  expect(spinning.body).toEqual({
    data: { spinLater: null },
    errors: [expect.objectContaining({ message: 'Lambda resolver Query.spinLater failed: it did not finish within 1000 ms', path: ['spinLater'] })],
  });
});

test('the script cannot reach process or require, not even through a function constructor', async () => {
  const { body } = await gql(server.url, `{ reachProcess reachRequire reachThroughConstructor echo(text: "fine") }`);
  expect(body.data).toEqual({ reachProcess: null, reachRequire: null, reachThroughConstructor: null, echo: 'echo: fine' });
  const messages = Object.fromEntries(body.errors!.map((error) => [error.path![0], error.message]));
  expect(messages).toEqual({
    reachProcess: 'Lambda resolver Query.reachProcess failed: process is not defined',
    reachRequire: 'Lambda resolver Query.reachRequire failed: require is not defined',
    // The sandbox compiles no code from strings, so the constructor chain stops before any other realm.
    reachThroughConstructor: 'Lambda resolver Query.reachThroughConstructor failed: Code generation from strings disallowed for this context',
  });
});

test('an answer of the wrong shape fails the field with a message naming the field and the shape', async () => {
  const { body } = await gql(server.url, `{ notAList echo(text: "ok") }`);
  expect(body.data).toEqual({ notAList: null, echo: 'echo: ok' });
  expect(body.errors).toEqual([
    expect.objectContaining({
      message: 'Query.notAList: the lambda resolver "Query.notAList" answered the wrong shape for [String]: it returned a string ("just a string"), not a list',
      extensions: expect.objectContaining({ code: 'CUSTOM_RESULT_INVALID' }),
    }),
  ]);
});
