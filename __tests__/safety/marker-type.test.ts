/**
 * `type Marker { id: ID! }`: a type with only its ID is a valid schema, as in Dgraph, whose generator leaves
 * out what has no fields to hold (AddMarkerInput and MarkerPatch, and so addMarker and updateMarker) and keeps
 * the rest of the API.
 */
import { pluck, useService } from '../api-e2e/harness';

const api = useService(`
type Marker { id: ID! }

type Spot {
  id: ID!
  label: String! @search(by: [hash])
  marker: Marker
}
`);

/** An id of the form the service makes (24 hex digits) that no object has: `getMarker` answers null for it. */
const ABSENT_ID = '0123456789abcdef01234567';

test('the schema activates and its queries answer', async () => {
  expect(await api.data(`{ queryMarker { id } aggregateMarker { count } getMarker(id: "${ABSENT_ID}") { id } }`)).toEqual({
    queryMarker: [],
    aggregateMarker: { count: 0 },
    getMarker: null,
  });
  expect(await api.data('mutation { deleteMarker(filter: { id: ["0x1"] }) { numUids msg marker { id } } }')).toEqual({
    deleteMarker: { numUids: 0, msg: 'No nodes were deleted', marker: [] },
  });
});

test('the API has no addMarker nor updateMarker (nothing to add or patch) and keeps the other operations', async () => {
  const result = await api.data(`{
    mutation: __type(name: "Mutation") { fields { name } }
    addInput: __type(name: "AddMarkerInput") { name }
    patch: __type(name: "MarkerPatch") { name }
    ref: __type(name: "MarkerRef") { inputFields { name type { kind ofType { name } } } }
  }`);
  expect(pluck<string>(result.mutation.fields, 'name').filter((name) => name.endsWith('Marker')).sort()).toEqual(['deleteMarker']);
  expect(result.addInput).toBeNull();
  expect(result.patch).toBeNull();
  // A Ref of the ID alone requires it, as Dgraph's does.
  expect(result.ref.inputFields).toEqual([{ name: 'id', type: { kind: 'NON_NULL', ofType: { name: 'ID' } } }]);
});

test('a type that refers to Marker adds, links by id and reads back', async () => {
  const added = await api.data('mutation { addSpot(input: [{ label: "alone" }]) { spot { label marker { id } } } }');
  expect(added).toEqual({ addSpot: { spot: [{ label: 'alone', marker: null }] } });
  const errors = await api.errors('mutation { addSpot(input: [{ label: "linked", marker: { id: "missing" } }]) { numUids } }');
  expect(errors).toEqual([{ code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation addSpot because failed to rewrite mutation payload because MarkerRef: no Marker with id "missing"' }]);
});
