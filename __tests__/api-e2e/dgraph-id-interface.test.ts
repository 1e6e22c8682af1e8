import { activateSchema, gql } from '../helpers/gql';
import { startCountingTestServer, startTestServer, type TestServer } from '../helpers/server';
import { SYSTEM_COLLECTIONS, type Collection } from '../../src/store/port.js';
import { withCollections } from '../../src/store/with-collections.js';
import { pluck, useService } from './harness';

/**
 * Issue 13 (dgrules): `@id(interface: true|false)` with Dgraph's meaning, on the schema of Dgraph's own
 * test (gqlschema_test.yml, "valid schema with @id directive having interface argument in interface"):
 * `interface: true` keeps a value unique across all the types implementing the interface; `@id` and
 * `@id(interface: false)` keep it unique per type. Errors carry Dgraph's wording.
 */

const SCHEMA = `
interface Member {
  refID: String! @id(interface: true)
  name: String! @id
  itemsIssued: [String]
  fineAccumulated: Int
}

interface Team {
  teamID: String! @id(interface: true)
  teamName: String! @id(interface: false)
}

type LibraryMember implements Member {
  interests: [String]
  readHours: String
}

type SportsMember implements Member & Team {
  plays: String
  playerRating: Int
}

type CricketTeam implements Team {
  numOfBatsmans: Int
  numOfBowlers: Int
}

type LibraryManager {
  name: String! @id
  manages: [LibraryMember]
}
`;

const api = useService(SCHEMA);

const across = (mutation: string, value: string, field: string, interfaceName: string) => ({
  code: 'DUPLICATE_ID',
  message: `couldn't rewrite mutation ${mutation} because failed to rewrite mutation payload because id ${value} already exists for field ${field} in some other implementing type of interface ${interfaceName}`,
});

beforeAll(async () => {
  await api.data(`mutation {
    addLibraryMember(input: [{ refID: "101", name: "Alice", readHours: "4d3hr" }]) { numUids }
    addSportsMember(input: [{ refID: "102", name: "Bob", teamID: "T01", teamName: "Slash", plays: "cricket" }]) { numUids }
  }`);
});

test('a value of an @id(interface: true) field that another implementing type holds is refused on add', async () => {
  expect(await api.errors('mutation { addSportsMember(input: [{ refID: "101", name: "Carol", teamID: "T02", teamName: "Hash" }]) { numUids } }'))
    .toEqual([across('addSportsMember', '101', 'refID', 'Member')]);
  expect(await api.errors('mutation { addCricketTeam(input: [{ teamID: "T01", teamName: "Slash", numOfBatsmans: 5 }]) { numUids } }'))
    .toEqual([across('addCricketTeam', 'T01', 'teamID', 'Team')]);
  const { querySportsMember, queryCricketTeam } = await api.data('{ querySportsMember { name } queryCricketTeam { teamID } }');
  expect(pluck(querySportsMember, 'name')).toEqual(['Bob']);
  expect(queryCricketTeam).toEqual([]);
});

test('an @id field without interface: true is unique per type only', async () => {
  // `name` (Member) and `teamName` (Team, interface: false): another implementing type may repeat them.
  await api.data('mutation { addCricketTeam(input: [{ teamID: "T03", teamName: "Slash" }]) { numUids } }');
  await api.data('mutation { addLibraryMember(input: [{ refID: "103", name: "Bob" }]) { numUids } }');
  const { queryMember } = await api.data('{ queryMember(order: { asc: refID }) { refID name __typename } }');
  expect(queryMember).toEqual([
    { refID: '101', name: 'Alice', __typename: 'LibraryMember' },
    { refID: '102', name: 'Bob', __typename: 'SportsMember' },
    { refID: '103', name: 'Bob', __typename: 'LibraryMember' },
  ]);
  // Within one type the value stays unique.
  expect(await api.errors('mutation { addLibraryMember(input: [{ refID: "104", name: "Alice" }]) { numUids } }')).toEqual([
    { code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation addLibraryMember because failed to rewrite mutation payload because id Alice already exists for field name inside type LibraryMember' },
  ]);
});

test('an update taking a value another implementing type holds is refused and changes nothing', async () => {
  expect(await api.errors('mutation { updateLibraryMember(input: { filter: { refID: { eq: "101" } }, set: { refID: "102", readHours: "5d2hr" } }) { numUids } }'))
    .toEqual([across('updateLibraryMember', '102', 'refID', 'Member')]);
  const { getLibraryMember } = await api.data('{ getLibraryMember(refID: "101") { refID readHours } }');
  expect(getLibraryMember).toEqual({ refID: '101', readHours: '4d3hr' });
  // A value no other implementing type holds is fine.
  const updated = await api.data('mutation { updateLibraryMember(input: { filter: { refID: { eq: "101" } }, set: { refID: "201" } }) { libraryMember { refID } } }');
  expect(updated.updateLibraryMember.libraryMember).toEqual([{ refID: '201' }]);
});

test('a nested object created by @id value is checked too (a reference to another type\'s value)', async () => {
  expect(await api.errors('mutation { addLibraryManager(input: [{ name: "John", manages: [{ refID: "102", name: "Zed" }] }]) { numUids } }'))
    .toEqual([across('addLibraryManager', '102', 'refID', 'Member')]);
  const { queryLibraryManager } = await api.data('{ queryLibraryManager { name } }');
  expect(queryLibraryManager).toEqual([]);
  // A reference to an existing LibraryMember by its value links it.
  const added = await api.data('mutation { addLibraryManager(input: [{ name: "John", manages: [{ refID: "201" }] }]) { libraryManager { name manages { refID name } } } }');
  expect(added.addLibraryManager.libraryManager).toEqual([{ name: 'John', manages: [{ refID: '201', name: 'Alice' }] }]);
});

describe('the cost of the check', () => {
  let counted: Awaited<ReturnType<typeof startCountingTestServer>>;

  beforeAll(async () => {
    counted = await startCountingTestServer();
    await activateSchema(counted.server.url, SCHEMA);
  });

  afterAll(() => counted.server.close());

  const addMembers = async (from: number, count: number): Promise<number> => {
    const input = Array.from({ length: count }, (_, index) => ({ refID: `m${from + index}`, name: `member ${from + index}` }));
    counted.counter.reset();
    const { body } = await gql(counted.server.url, 'mutation($input: [AddLibraryMemberInput!]!) { addLibraryMember(input: $input) { numUids } }', { input });
    expect(body).toEqual({ data: { addLibraryMember: { numUids: count } } });
    return counted.counter.count;
  };

  it('is a bounded number of store calls for an add, however many inputs it has', async () => {
    const forOne = await addMembers(0, 1);
    const forForty = await addMembers(1, 40);
    expect(forForty).toBe(forOne);
  });
});

describe('the claims that make concurrent mutations conflict', () => {
  const claimWrites: Array<{ operation: string; argument: unknown; inTransaction: boolean }> = [];
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      wrapStore: (store) => withCollections(store, (name) => {
        const inner = store.collection(name);
        if (name !== SYSTEM_COLLECTIONS.interfaceIdClaims) return inner;
        return {
          ...inner,
          name: inner.name,
          find: inner.find.bind(inner),
          insertMany: (documents, scope) => {
            claimWrites.push({ operation: 'insertMany', argument: documents, inTransaction: scope?.tx !== undefined });
            return inner.insertMany(documents, scope);
          },
          deleteMany: (filter, scope) => {
            claimWrites.push({ operation: 'deleteMany', argument: filter, inTransaction: scope?.tx !== undefined });
            return inner.deleteMany(filter, scope);
          },
        } as Collection;
      }),
    });
    await activateSchema(server.url, SCHEMA);
  });

  afterAll(() => server.close());

  it('writes one claim per value given, and deletes it again, in the mutation\'s transaction', async () => {
    const { body } = await gql(server.url, 'mutation { addSportsMember(input: [{ refID: "7", name: "Ann", teamID: "T7", teamName: "Seven" }]) { numUids } }');
    expect(body).toEqual({ data: { addSportsMember: { numUids: 1 } } });
    expect(claimWrites).toEqual([
      // In the type's field order, which puts the inherited fields of the last interface first (as Dgraph does).
      { operation: 'insertMany', argument: [{ _id: 'Team.teamID:"T7"' }, { _id: 'Member.refID:"7"' }], inTransaction: true },
      { operation: 'deleteMany', argument: { _id: { $in: ['Team.teamID:"T7"', 'Member.refID:"7"'] } }, inTransaction: true },
    ]);
    expect(await server.store.collection(SYSTEM_COLLECTIONS.interfaceIdClaims).find({})).toEqual([]);
  });

  it('writes none for a type without @id(interface: true) values', async () => {
    claimWrites.length = 0;
    await gql(server.url, 'mutation { addLibraryManager(input: [{ name: "Kim" }]) { numUids } }');
    expect(claimWrites).toEqual([]);
  });
});
