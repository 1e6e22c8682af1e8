import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/**
 * Issue 32: Dgraph's `@remote` types, interfaces and unions through the real service. They are not
 * stored and get no operations; `@custom(http:)` and `@lambda` fields answer them, and
 * `@remoteResponse(name:)` reads a field from another key of the answer. Objects of stored types inside
 * a remote answer are answered like any custom answer (their stored values fill what they lack).
 */

let remote: Server;
let remoteBase: string;

const ANSWERS: Record<string, unknown> = {
  '/garage/7': {
    owner_name: 'Ada',
    vehicles: [
      { __typename: 'Bike', model: 'Brompton', gears: 6 },
      { __typename: 'Van', model: 'Transit', seat_count: 3 },
    ],
    favourite: { __typename: 'Van', model: 'Kangoo', seat_count: 2 },
    extra: 'ignored',
  },
};

beforeAll(async () => {
  remote = createServer((req, res) => {
    const answer = ANSWERS[req.url ?? ''];
    res.writeHead(answer === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  remoteBase = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});

afterAll(async () => {
  remote.closeAllConnections();
  await new Promise((resolve) => remote.close(resolve));
});

function schema(base: string): string {
  return `
interface Vehicle @remote {
  model: String!
}

type Bike implements Vehicle @remote {
  gears: Int
}

type Van implements Vehicle @remote {
  seats: Int @remoteResponse(name: "seat_count")
}

"What the garage service answers."
type Garage @remote {
  owner: String @remoteResponse(name: "owner_name")
  vehicles: [Vehicle]
  favourite: Vehicle
  keeper: Mechanic
}

union Ride @remote = Bike | Van | Mechanic

type Mechanic {
  id: ID!
  name: String! @search(by: [hash])
  garage(number: Int!): Garage @custom(http: { url: "${base}/garage/$number", method: GET })
  rides: [Ride] @lambda
}

type Query {
  garageByNumber(number: Int!): Garage @custom(http: { url: "${base}/garage/$number", method: GET })
  garageOf(name: String!): Garage @lambda
}

type Mutation {
  addGarage(owner: String!): Garage @lambda
}
`;
}

const SCRIPT = `
self.addGraphQLResolvers({
  'Query.garageOf': async ({ args, graphql }) => {
    const answer = await graphql('query($n: String!) { queryMechanic(filter: { name: { eq: $n } }) { id } }', { n: args.name });
    const mechanic = answer.data.queryMechanic[0];
    return { owner_name: args.name, vehicles: [], keeper: mechanic ? { id: mechanic.id } : null };
  },
  'Mutation.addGarage': ({ args }) => ({ owner_name: args.owner, vehicles: [{ __typename: 'Bike', model: 'Cargo', gears: 3 }] }),
  'Mechanic.rides': ({ parent }) => [
    { __typename: 'Bike', model: 'Road', gears: 22 },
    { __typename: 'Mechanic', id: parent.id },
  ],
});
`;

let server: TestServer;
let mechanicId: string;

beforeAll(async () => {
  server = await startTestServer({ customAllow: ['127.0.0.1'] });
  await activateSchema(server.url, schema(remoteBase));
  await loadLambda(server.url, SCRIPT);
  const { body } = await gql(server.url, 'mutation { addMechanic(input: [{ name: "Grace" }]) { mechanic { id } } }');
  expect(body.errors).toBeUndefined();
  mechanicId = body.data!.addMechanic.mechanic[0].id;
});

afterAll(() => server.close());

test('a @custom query answers a @remote type: @remoteResponse keys, interface members by __typename', async () => {
  const { body } = await gql(server.url, `{
    garageByNumber(number: 7) {
      owner
      vehicles { __typename model ... on Bike { gears } ... on Van { seats } }
      favourite { model ... on Van { seats } }
    }
  }`);
  expect(body).toEqual({
    data: {
      garageByNumber: {
        owner: 'Ada',
        vehicles: [{ __typename: 'Bike', model: 'Brompton', gears: 6 }, { __typename: 'Van', model: 'Transit', seats: 3 }],
        favourite: { model: 'Kangoo', seats: 2 },
      },
    },
  });
});

test('a @custom field of a stored type answers a @remote type', async () => {
  const { body } = await gql(server.url, `{ queryMechanic { name garage(number: 7) { owner favourite { __typename } } } }`);
  expect(body).toEqual({ data: { queryMechanic: [{ name: 'Grace', garage: { owner: 'Ada', favourite: { __typename: 'Van' } } }] } });
});

test('a @lambda query and mutation answer a @remote type; a stored object inside it is read from the store', async () => {
  const query = await gql(server.url, '{ garageOf(name: "Grace") { owner vehicles { model } keeper { id name } } }');
  expect(query.body).toEqual({ data: { garageOf: { owner: 'Grace', vehicles: [], keeper: { id: mechanicId, name: 'Grace' } } } });
  const mutation = await gql(server.url, 'mutation { addGarage(owner: "Lin") { owner vehicles { ... on Bike { model gears } } } }');
  expect(mutation.body).toEqual({ data: { addGarage: { owner: 'Lin', vehicles: [{ model: 'Cargo', gears: 3 }] } } });
});

test('a @remote union holds @remote and stored members', async () => {
  const { body } = await gql(server.url, '{ queryMechanic { rides { __typename ... on Bike { gears } ... on Mechanic { name } } } }');
  expect(body).toEqual({ data: { queryMechanic: [{ rides: [{ __typename: 'Bike', gears: 22 }, { __typename: 'Mechanic', name: 'Grace' }] }] } });
});

test('an answer without the __typename an interface needs fails the field, naming the candidates', async () => {
  ANSWERS['/garage/8'] = { owner_name: 'Bo', favourite: { model: 'Mystery' } };
  const { body } = await gql(server.url, '{ garageByNumber(number: 8) { owner favourite { model } } }');
  expect(body.data).toEqual({ garageByNumber: null });
  expect(body.errors).toEqual([expect.objectContaining({
    message: 'Query.garageByNumber: the @custom endpoint answered the wrong shape for Garage: Garage.favourite of the value needs "__typename" naming one of Bike, Van (the types Vehicle stands for)',
    path: ['garageByNumber'],
  })]);
});

test('a @remote type gets no operations, filters or inputs, and frees the names they would take', async () => {
  const { body } = await gql(server.url, `{
    query: __type(name: "Query") { fields { name } }
    mutation: __type(name: "Mutation") { fields { name } }
    filter: __type(name: "GarageFilter") { name }
    ref: __type(name: "VanRef") { name }
    garage: __type(name: "Garage") { kind description fields { name args { name } } }
  }`);
  expect(body.data!.query.fields.map((field: { name: string }) => field.name)).toEqual(['garageByNumber', 'garageOf', 'getMechanic', 'queryMechanic', 'aggregateMechanic', '_service']);
  expect(body.data!.mutation.fields.map((field: { name: string }) => field.name)).toEqual(['addGarage', 'addMechanic', 'updateMechanic', 'deleteMechanic']);
  expect(body.data!.filter).toBeNull();
  expect(body.data!.ref).toBeNull();
  expect(body.data!.garage).toEqual({
    kind: 'OBJECT',
    description: 'What the garage service answers.',
    fields: [
      { name: 'owner', args: [] },
      { name: 'vehicles', args: [] },
      { name: 'favourite', args: [] },
      { name: 'keeper', args: [] },
    ],
  });
});
