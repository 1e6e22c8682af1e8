import { useService } from './harness';

/**
 * A field that is its own inverse is symmetric, as in Dgraph (`Person.friends <-> Person.friends` in its
 * GraphQL tour): linking a to b links b to a, from add, update and upsert, and unlinking or deleting
 * either end undoes both directions.
 */

const SCHEMA = `
type Person {
  id: ID!
  name: String! @id
  friends: [Person] @hasInverse(field: friends)
  spouse: Person @hasInverse(field: spouse)
}
`;

const api = useService(SCHEMA);

beforeEach(async () => {
  await api.data(`mutation { deletePerson(filter: {}) { numUids } }`);
});

/** Each person's friends (sorted) and spouse, by name. */
async function graph(): Promise<Record<string, { friends: string[]; spouse: string | null }>> {
  const { queryPerson } = await api.data(`{ queryPerson { name friends(order: { asc: name }) { name } spouse { name } } }`);
  return Object.fromEntries(queryPerson.map((person: any) => [
    person.name,
    { friends: person.friends.map((friend: { name: string }) => friend.name), spouse: person.spouse?.name ?? null },
  ]));
}

const friendsOf = async (): Promise<Record<string, string[]>> =>
  Object.fromEntries(Object.entries(await graph()).map(([name, { friends }]) => [name, friends]));

describe('a list field that is its own inverse', () => {
  test('add links both ways, for new and existing friends and nested ones', async () => {
    await api.data(`mutation { addPerson(input: [{ name: "cy" }]) { numUids } }`);
    await api.data(`mutation {
      addPerson(input: [{ name: "ann", friends: [{ name: "bob", friends: [{ name: "dee" }] }, { name: "cy" }] }]) { numUids }
    }`);
    expect(await friendsOf()).toEqual({ ann: ['bob', 'cy'], bob: ['ann', 'dee'], cy: ['ann'], dee: ['bob'] });
    const counts = await api.data(`{
      getPerson(name: "cy") { friendsAggregate { count } }
      withFriends: aggregatePerson(filter: { has: friends }) { count }
    }`);
    expect(counts).toEqual({ getPerson: { friendsAggregate: { count: 1 } }, withFriends: { count: 4 } });
  });

  test('update set and remove from either end change both ends', async () => {
    await api.data(`mutation { addPerson(input: [{ name: "ann", friends: [{ name: "bob" }, { name: "cy" }] }]) { numUids } }`);
    await api.data(`mutation { updatePerson(input: { filter: { name: { eq: "bob" } }, set: { friends: [{ name: "cy" }] } }) { numUids } }`);
    expect(await friendsOf()).toEqual({ ann: ['bob', 'cy'], bob: ['ann', 'cy'], cy: ['ann', 'bob'] });
    // ann added cy; cy removes ann.
    await api.data(`mutation { updatePerson(input: { filter: { name: { eq: "cy" } }, remove: { friends: [{ name: "ann" }] } }) { numUids } }`);
    expect(await friendsOf()).toEqual({ ann: ['bob'], bob: ['ann', 'cy'], cy: ['bob'] });
  });

  test('upsert links the existing object both ways', async () => {
    await api.data(`mutation { addPerson(input: [{ name: "ann" }, { name: "bob" }]) { numUids } }`);
    await api.data(`mutation { addPerson(upsert: true, input: [{ name: "bob", friends: [{ name: "ann" }] }]) { numUids } }`);
    expect(await friendsOf()).toEqual({ ann: ['bob'], bob: ['ann'] });
  });

  test('deleting a person removes it from every friend list', async () => {
    await api.data(`mutation { addPerson(input: [{ name: "ann", friends: [{ name: "bob" }, { name: "cy" }] }]) { numUids } }`);
    expect(await friendsOf()).toEqual({ ann: ['bob', 'cy'], bob: ['ann'], cy: ['ann'] });
    await api.data(`mutation { deletePerson(filter: { name: { eq: "ann" } }) { numUids } }`);
    expect(await friendsOf()).toEqual({ bob: [], cy: [] });
  });

  test('a failed mutation leaves neither direction behind', async () => {
    await api.data(`mutation { addPerson(input: [{ name: "ann" }]) { numUids } }`);
    const errors = await api.errors(`mutation {
      addPerson(input: [{ name: "bob", friends: [{ name: "ann" }] }, { name: "cy", friends: [{ id: "missing" }] }]) { numUids }
    }`);
    expect(errors).toEqual([{ code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation addPerson because failed to rewrite mutation payload because PersonRef: no Person with id "missing"' }]);
    expect(await friendsOf()).toEqual({ ann: [] });
  });
});

describe('a single field that is its own inverse', () => {
  test('is one-to-one both ways: a new partner detaches the old partners of both ends', async () => {
    await api.data(`mutation { addPerson(input: [{ name: "ann", spouse: { name: "bob" } }, { name: "cy", spouse: { name: "dee" } }]) { numUids } }`);
    expect(await graph()).toEqual({
      ann: { friends: [], spouse: 'bob' }, bob: { friends: [], spouse: 'ann' },
      cy: { friends: [], spouse: 'dee' }, dee: { friends: [], spouse: 'cy' },
    });
    // bob and cy: ann and dee lose their spouses.
    await api.data(`mutation { updatePerson(input: { filter: { name: { eq: "bob" } }, set: { spouse: { name: "cy" } } }) { numUids } }`);
    expect(await graph()).toEqual({
      ann: { friends: [], spouse: null }, bob: { friends: [], spouse: 'cy' },
      cy: { friends: [], spouse: 'bob' }, dee: { friends: [], spouse: null },
    });
  });

  test('remove from either end unlinks both', async () => {
    await api.data(`mutation { addPerson(input: [{ name: "ann", spouse: { name: "bob" } }]) { numUids } }`);
    await api.data(`mutation { updatePerson(input: { filter: { name: { eq: "bob" } }, remove: { spouse: { name: "ann" } } }) { numUids } }`);
    expect(await graph()).toEqual({ ann: { friends: [], spouse: null }, bob: { friends: [], spouse: null } });
    const married = await api.data(`{ aggregatePerson(filter: { has: spouse }) { count } }`);
    expect(married.aggregatePerson.count).toBe(0);
  });
});
