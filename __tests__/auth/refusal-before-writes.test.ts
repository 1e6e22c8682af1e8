/**
 * Issue 19: `@auth` must hold on a store without transactions (a standalone MongoDB server), so a refused
 * mutation must not have written anything before it was refused. The store the server opens is wrapped
 * in a recorder of write calls; each refused mutation, sent over HTTP as a client would, must answer
 * FORBIDDEN with no insert, update or delete having reached the store. On a transactional store a write
 * rolled back afterwards would leave the data right but still show up here.
 */
import type { Collection, Store } from '../../src/store/port.js';
import { activateSchema, gql } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { overriding } from '../helpers/store-wrap.js';
import { authorizationLine, tokenFor } from './keys.js';

const OWNER = 'query($USER: String!) { queryTask { user(filter: { username: { eq: $USER } }) { __typename } } }';
const AUTHOR = 'query($USER: String!) { queryCard(filter: { author: { eq: $USER } }) { __typename } }';

const SCHEMA = `
type Task @auth(query: { rule: """${OWNER}""" }, add: { rule: """${OWNER}""" }, update: { rule: """${OWNER}""" }) {
  id: ID!
  title: String! @search(by: [hash])
  user: User!
}

type User {
  username: String! @id @search(by: [hash])
  tasks: [Task] @hasInverse(field: user)
}

type Board {
  name: String! @id @search(by: [hash])
  cards: [Card] @hasInverse(field: board)
}

type Card @auth(update: { rule: """${AUTHOR}""" }) {
  id: ID!
  author: String! @search(by: [hash])
  board: Board
}

type Tag {
  id: ID!
  label: String! @search(by: [hash])
}

${authorizationLine({ algo: 'HS256', header: 'Authorization', closedByDefault: true })}
`;

const WRITES = ['insertMany', 'updateMany', 'deleteMany'] as const;

/** `store` with every write call logged as `operation collection`. */
function recordingWrites(store: Store, log: string[]): Store {
  return overriding(store, {
    collection(name) {
      const inner = store.collection(name);
      const recorded: Partial<Collection> = {};
      for (const operation of WRITES) {
        recorded[operation] = ((...args: unknown[]) => {
          log.push(`${operation} ${name}`);
          return (inner[operation] as (...a: unknown[]) => unknown).apply(inner, args);
        }) as never;
      }
      return { ...bound(inner), ...recorded };
    },
  });
}

function bound(collection: Collection): Collection {
  return {
    name: collection.name,
    find: collection.find.bind(collection),
    count: collection.count.bind(collection),
    aggregate: collection.aggregate.bind(collection),
    findPerKey: collection.findPerKey.bind(collection),
    insertMany: collection.insertMany.bind(collection),
    updateMany: collection.updateMany.bind(collection),
    deleteMany: collection.deleteMany.bind(collection),
  };
}

const as = (user: string) => ({ authorization: `Bearer ${tokenFor({ USER: user }, { algorithm: 'HS256' })}` });
const alice = as('alice');
const bob = as('bob');

const writes: string[] = [];
let server: TestServer;
let bobsCard: string;

async function data(query: string, headers: Record<string, string> = {}): Promise<Record<string, any>> {
  const { status, body } = await gql(server.url, query, undefined, headers);
  if (status !== 200 || body.errors) throw new Error(`HTTP ${status}: ${JSON.stringify(body)}`);
  return body.data as Record<string, any>;
}

/** Sends `query` as `headers`' caller: the first error, and the writes the store saw while it ran. */
async function refusal(query: string, headers: Record<string, string> = {}) {
  writes.length = 0;
  const { status, body } = await gql(server.url, query, undefined, headers);
  return { status, error: body.errors?.[0], data: body.data, writes: [...writes] };
}

beforeAll(async () => {
  server = await startTestServer({ wrapStore: (store) => recordingWrites(store, writes) });
  await activateSchema(server.url, SCHEMA);
  await data('mutation { addUser(input: [{ username: "alice" }, { username: "bob" }]) { numUids } }', alice);
  await data('mutation { addTask(input: [{ title: "Bob one", user: { username: "bob" } }]) { numUids } }', bob);
  await data('mutation { addBoard(input: [{ name: "alice-board" }, { name: "bob-board" }]) { numUids } }', alice);
  const cards = await data('mutation { addCard(input: [{ author: "bob", board: { name: "bob-board" } }]) { card { id } } }', bob);
  bobsCard = cards.addCard.card[0].id;
});

afterAll(async () => {
  await server?.close();
});

test('the recorder sees the writes of an allowed mutation (so an empty log below means nothing was written)', async () => {
  const { error, data: answer, writes: seen } = await refusal('mutation { addTask(input: [{ title: "Alice one", user: { username: "alice" } }]) { numUids } }', alice);
  expect(error).toBeUndefined();
  expect(answer).toEqual({ addTask: { numUids: 1 } });
  expect(seen).toEqual(['insertMany Task']);
});

test.each<[string, string, Record<string, string>, string]>([
  [
    'a task forged for another user, with a new user created on the way',
    'mutation { addTask(input: [{ title: "Forged", user: { username: "dave" } }]) { numUids } }',
    alice,
    '1 of the 1 new Task objects do not satisfy the add rule of Task; nothing was written',
  ],
  [
    'one allowed and one forged task in the same add',
    'mutation { addTask(input: [{ title: "Mine", user: { username: "alice" } }, { title: "Forged", user: { username: "bob" } }]) { numUids } }',
    alice,
    '1 of the 2 new Task objects do not satisfy the add rule of Task; nothing was written',
  ],
  [
    'a new task on the derived side of an existing user',
    'mutation { updateUser(input: { filter: { username: { eq: "bob" } }, set: { tasks: [{ title: "Planted", user: { username: "bob" } }] } }) { numUids } }',
    alice,
    '1 of the 1 new Task objects do not satisfy the add rule of Task; nothing was written',
  ],
])('%s: FORBIDDEN, and no write reached the store', async (_name, mutation, headers, message) => {
  const { error, writes: seen } = await refusal(mutation, headers);
  expect(error).toMatchObject({ message, extensions: { code: 'FORBIDDEN' } });
  expect(seen).toEqual([]);
});

test('linking a card the update rule refuses (an edge stored on the card): FORBIDDEN before the card is written', async () => {
  const mutation = `mutation { updateBoard(input: { filter: { name: { eq: "alice-board" } }, set: { cards: [{ id: "${bobsCard}" }] } }) { numUids } }`;
  const { error, writes: seen } = await refusal(mutation, alice);
  expect(error).toMatchObject({
    message: `linking or unlinking Card.board would change the existing Card ${bobsCard}, which the update rule of Card does not allow for this caller; nothing was written`,
    extensions: { code: 'FORBIDDEN' },
  });
  expect(seen).toEqual([]);
  expect((await data(`{ getCard(id: "${bobsCard}") { board { name } } }`, bob)).getCard).toEqual({ board: { name: 'bob-board' } });
});

test('an anonymous add on a closed-by-default type: FORBIDDEN with no write', async () => {
  const { error, writes: seen } = await refusal('mutation { addTag(input: [{ label: "x" }]) { numUids } }');
  expect(error?.extensions?.code).toBe('FORBIDDEN');
  expect(seen).toEqual([]);
});

test('after the refusals, none of their objects exists', async () => {
  expect((await data('{ queryTask { title } }', bob)).queryTask).toEqual([{ title: 'Bob one' }]);
  expect((await data('{ queryTask { title } }', alice)).queryTask).toEqual([{ title: 'Alice one' }]);
  expect((await data('{ getUser(username: "dave") { username } }', alice)).getUser).toBeNull();
  expect((await data('{ queryTag { label } }', alice)).queryTag).toEqual([]);
});
