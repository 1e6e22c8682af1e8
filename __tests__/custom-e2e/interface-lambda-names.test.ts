import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/**
 * Which resolver a `@lambda` field inherited from an interface runs: Dgraph names it after the type the
 * field is selected on in the query (`GetBodyForLambda`: `field.GetObjectName() + "." + field.Name()`),
 * so `queryCharacter { bio }` runs `Character.bio` and `... on Human { bio }` runs `Human.bio`
 * (Dgraph's e2e `lambdaOnInterfaceField`, with its schema and script). Where Dgraph would find no resolver
 * under that name, the other registered one serves (README "Different from Dgraph, and why").
 */
const SCHEMA = `
interface Character {
  id: ID!
  name: String! @search(by: [exact])
  bio: String @lambda
}
type Human implements Character {
  totalCredits: Float
}
type Droid implements Character {
  primaryFunction: String
}
`;

const CHARACTER_BIO = "'Character.bio': ({ parent: { name } }) => `My name is ${name}.`,";
const HUMAN_BIO = "'Human.bio': ({ parent: { name, totalCredits } }) => `My name is ${name}. I have ${totalCredits} credits.`,";
const DROID_BIO = "'Droid.bio': ({ parent: { name, primaryFunction } }) => `My name is ${name}. My primary function is ${primaryFunction}.`,";
const script = (...resolvers: string[]) => `self.addGraphQLResolvers({ ${resolvers.join(' ')} });`;

const THROUGH_INTERFACE = `{ queryCharacter(order: { asc: name }) { name bio } }`;
const ON_TYPES = `{ queryCharacter(order: { asc: name }) { name ... on Human { bio } ... on Droid { bio } } }`;
const CHARACTER_BIOS = [{ name: 'Han', bio: 'My name is Han.' }, { name: 'R2-D2', bio: 'My name is R2-D2.' }];
const TYPE_BIOS = [{ name: 'Han', bio: 'My name is Han. I have 10 credits.' }, { name: 'R2-D2', bio: 'My name is R2-D2. My primary function is Robot.' }];

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, script(CHARACTER_BIO, HUMAN_BIO, DROID_BIO));
  await gql(server.url, `mutation { addHuman(input: [{ name: "Han", totalCredits: 10 }]) { numUids } addDroid(input: [{ name: "R2-D2", primaryFunction: "Robot" }]) { numUids } }`);
});

afterAll(() => server.close());

async function queried(query: string): Promise<unknown> {
  const { body } = await gql(server.url, query);
  expect(body.errors).toBeUndefined();
  return body.data;
}

describe('all three registered, as in Dgraph\'s e2e', () => {
  beforeAll(() => loadLambda(server.url, script(CHARACTER_BIO, HUMAN_BIO, DROID_BIO)));

  test('selected through the interface, the interface\'s resolver runs for every type', async () => {
    expect(await queried(THROUGH_INTERFACE)).toEqual({ queryCharacter: CHARACTER_BIOS });
  });

  test('selected on the types (fragments, a named fragment, their own queries), each type\'s own runs', async () => {
    expect(await queried(ON_TYPES)).toEqual({ queryCharacter: TYPE_BIOS });
    expect(await queried(`{ queryCharacter(order: { asc: name }) { name ...HumanBio ... on Droid { bio } } } fragment HumanBio on Human { bio }`))
      .toEqual({ queryCharacter: TYPE_BIOS });
    expect(await queried(`{ queryHuman { bio } queryDroid { bio } }`)).toEqual({ queryHuman: [{ bio: TYPE_BIOS[0]!.bio }], queryDroid: [{ bio: TYPE_BIOS[1]!.bio }] });
  });

  test('a named fragment on the interface runs the interface\'s', async () => {
    expect(await queried(`{ queryHuman { ...Bio } } fragment Bio on Character { bio }`)).toEqual({ queryHuman: [{ bio: 'My name is Han.' }] });
  });
});

describe('only some registered', () => {
  test('only the types\' resolvers: they serve the field through the interface too', async () => {
    await loadLambda(server.url, script(HUMAN_BIO, DROID_BIO));
    expect(await queried(THROUGH_INTERFACE)).toEqual({ queryCharacter: TYPE_BIOS });
  });

  test('only the interface\'s: it serves the field on the types too', async () => {
    await loadLambda(server.url, script(CHARACTER_BIO));
    expect(await queried(ON_TYPES)).toEqual({ queryCharacter: CHARACTER_BIOS });
  });
});
