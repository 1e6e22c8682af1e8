import { useService } from './harness';

/**
 * `@id(interface: true)` on a field that `@dgraph(pred:)` stores under another name: the value is unique
 * across the implementing types all the same (the check reads each type's stored name, not the API name).
 */
const api = useService(`
interface Member {
  refID: String! @id(interface: true) @dgraph(pred: "Member.ref")
  name: String
}

type Staff implements Member {
  desk: Int
}

type Guest implements Member {
  host: String
}
`);

const taken = (mutation: string) => ({
  code: 'DUPLICATE_ID',
  message: `couldn't rewrite mutation ${mutation} because failed to rewrite mutation payload because id s1 already exists for field refID in some other implementing type of interface Member`,
});

beforeAll(async () => {
  await api.data('mutation { addStaff(input: [{ refID: "s1", name: "Sam", desk: 4 }]) { numUids } }');
});

test('another implementing type cannot add the value, nor take it by update', async () => {
  expect(await api.errors('mutation { addGuest(input: [{ refID: "s1", name: "Gil" }]) { numUids } }')).toEqual([taken('addGuest')]);
  await api.data('mutation { addGuest(input: [{ refID: "g1", name: "Gil" }]) { numUids } }');
  expect(await api.errors('mutation { updateGuest(input: { filter: { refID: { eq: "g1" } }, set: { refID: "s1" } }) { numUids } }')).toEqual([taken('updateGuest')]);
  const { queryMember } = await api.data('{ queryMember(order: { asc: refID }) { refID name __typename } }');
  expect(queryMember).toEqual([
    { refID: 'g1', name: 'Gil', __typename: 'Guest' },
    { refID: 's1', name: 'Sam', __typename: 'Staff' },
  ]);
});
