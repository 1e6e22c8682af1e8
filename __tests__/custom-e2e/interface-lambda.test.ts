import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/** An `Interface.field` resolver serves the field on every implementing type, each with its own parents. */

const SCHEMA = `
interface Named {
  name: String! @search(by: [hash])
  label: String @lambda
  tag: String @lambda
}
type Person implements Named { key: ID! age: Int }
type Robot implements Named { id: ID! model: String }
type Query { someone(kind: String!): Named @lambda }
`;

const SCRIPT = `
self.addMultiParentGraphQLResolvers({
  'Named.label': ({ parents }) => parents.map((p) => p.name + ' key=' + p.key + ' id=' + p.id),
});
self.addGraphQLResolvers({
  'Named.tag': ({ parent }) => 'named ' + parent.name,
  'Robot.tag': ({ parent }) => 'robot ' + parent.name,
  'Query.someone': ({ args }) => args.kind === 'robot'
    ? { __typename: 'Robot', id: 'r-1', name: 'Marvin', model: 'paranoid' }
    : { __typename: 'Person', key: 'p-1', name: 'Arthur', age: 42 },
});
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, SCRIPT);
  await gql(server.url, `mutation { addPerson(input: [{ name: "Ada", age: 36 }, { name: "Grace", age: 85 }]) { numUids } }`);
  await gql(server.url, `mutation { addRobot(input: [{ name: "R2", model: "astromech" }]) { numUids } }`);
});

afterAll(() => server.close());

test('each type gets its own parents (with its own ID field); selected on the type, Type.field wins over Interface.field', async () => {
  const { body } = await gql(server.url, `{ queryNamed(order: { asc: name }) { name label tag ... on Person { key } ... on Robot { id robotTag: tag } } }`);
  expect(body.errors).toBeUndefined();
  const [ada, grace, r2] = body.data!.queryNamed;
  expect(ada).toEqual({ name: 'Ada', key: expect.any(String), label: `Ada key=${ada.key} id=undefined`, tag: 'named Ada' });
  expect(grace).toEqual({ name: 'Grace', key: expect.any(String), label: `Grace key=${grace.key} id=undefined`, tag: 'named Grace' });
  // `tag` selected on Named runs Named.tag, as Dgraph does; `... on Robot { tag }` runs Robot.tag.
  expect(r2).toEqual({ name: 'R2', id: expect.any(String), label: `R2 key=undefined id=${r2.id}`, tag: 'named R2', robotTag: 'robot R2' });
  const robots = await gql(server.url, `{ queryRobot { tag } }`);
  expect(robots.body).toEqual({ data: { queryRobot: [{ tag: 'robot R2' }] } });
});

test('a lambda returning an interface names the concrete type with __typename', async () => {
  const { body } = await gql(server.url, `{ robot: someone(kind: "robot") { __typename name ... on Robot { tag } } person: someone(kind: "person") { __typename name label } }`);
  expect(body).toEqual({
    data: {
      robot: { __typename: 'Robot', name: 'Marvin', tag: 'robot Marvin' },
      person: { __typename: 'Person', name: 'Arthur', label: 'Arthur key=p-1 id=undefined' },
    },
  });
});
