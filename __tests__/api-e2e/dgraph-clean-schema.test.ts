import { DGRAPH_FIXTURES } from '../api/dgraph-fixtures';
import { useService } from './harness';

/**
 * Dgraph's clean-up of the generated API (filter-cleanSchema-*.graphql in its schemagen test data), through
 * the HTTP endpoint on the run's store: a schema whose Ref, Patch or Add inputs end up without fields
 * activates, the inputs and mutations that would take them are not in the API, and what remains answers.
 */

function fixture(name: string): string {
  const found = DGRAPH_FIXTURES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found.schema;
}

describe('every input left empty: only queries, aggregates and deletes', () => {
  const api = useService(fixture('inputs left empty by reverse edges are dropped, repeatedly'));

  test('the schema activates and its queries answer', async () => {
    expect(await api.data('{ queryShelf(first: 5) { titles(first: 5) { heldBy(first: 5) { __typename } } } aggregateVolume { count } queryAisle { shelves { __typename } } }')).toEqual({
      queryShelf: [],
      aggregateVolume: { count: 0 },
      queryAisle: [],
    });
  });

  test('a reverse-edges-only filter takes not alone', async () => {
    expect(await api.data('{ queryVolume(filter: { not: { not: {} } }) { __typename } }')).toEqual({ queryVolume: [] });
    expect(await api.errors('{ queryVolume(filter: { has: heldBy }) { __typename } }')).toEqual([
      { code: 'GRAPHQL_VALIDATION_FAILED', message: 'Field "has" is not defined by type "VolumeFilter".' },
    ]);
  });

  test('deletes answer', async () => {
    expect(await api.data('mutation { deleteShelf(filter: {}) { numUids msg } }')).toEqual({ deleteShelf: { numUids: 0, msg: 'No nodes were deleted' } });
  });

  test('no add or update: the client is told the field does not exist', async () => {
    expect(await api.errors('mutation { addShelf(input: [{}]) { numUids } }')).toEqual([
      { code: 'GRAPHQL_VALIDATION_FAILED', message: expect.stringMatching(/^Cannot query field "addShelf" on type "Mutation"\./) },
    ]);
    expect((await api.errors('mutation { updateAisle(input: { filter: {} }) { numUids } }'))[0]?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('an ID keeps its type writable, less the relation to a dropped Ref', () => {
  const api = useService(fixture('an ID keeps a Ref alive when its relations are dropped'));

  test('add, update, query and delete the type that kept its inputs', async () => {
    const added = await api.data('mutation { addStation(input: [{ title: "Central" }, { title: "Harbour" }]) { numUids station(order: { asc: title }) { title lines { __typename } } } }');
    expect(added).toEqual({ addStation: { numUids: 2, station: [{ title: 'Central', lines: [] }, { title: 'Harbour', lines: [] }] } });
    const updated = await api.data('mutation { updateStation(input: { filter: { has: title }, set: { title: "North" } }) { numUids } }');
    expect(updated).toEqual({ updateStation: { numUids: 2 } });
    expect(await api.data('{ aggregateStation { count titleMin } queryTrack { stations { title } } }')).toEqual({
      aggregateStation: { count: 2, titleMin: 'North' },
      queryTrack: [],
    });
    expect(await api.data('mutation { deleteStation(filter: { has: title }) { numUids } }')).toEqual({ deleteStation: { numUids: 2 } });
  });

  test('the dropped relation is not an input field', async () => {
    expect(await api.errors('mutation { addStation(input: [{ title: "East", lines: [] }]) { numUids } }')).toEqual([
      { code: 'GRAPHQL_VALIDATION_FAILED', message: 'Field "lines" is not defined by type "AddStationInput".' },
    ]);
  });

  test('no addDepot', async () => {
    expect((await api.errors('mutation { addDepot(input: [{}]) { numUids } }'))[0]?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
