import { useService } from './harness';

/**
 * Dgraph's @hasInverse through an interface (schemagen's hasInverse-with-interface.graphql), through the
 * HTTP endpoint on the run's store: two relations of one type name the same field inherited from an
 * interface, each pairing with its own target's copy of it, so each side answers the other.
 */
const SCHEMA = `
type Keeper {
  id: ID!
  name: String! @search(by: [hash])
  lions: [Lion] @hasInverse(field: keeper)
  zebras: [Zebra] @hasInverse(field: keeper)
}

interface Animal {
  id: ID!
  nickname: String @search(by: [hash])
  keeper: Keeper!
}

type Lion implements Animal {
  roars: Int
}

type Zebra implements Animal {
  stripes: Int
}
`;

const api = useService(SCHEMA);

test('each relation pairs with its own type\'s copy of the inherited field', async () => {
  const added = await api.data(`mutation {
    addKeeper(input: [{ name: "Ada", lions: [{ nickname: "Leo", roars: 3 }], zebras: [{ nickname: "Stripe", stripes: 40 }] }]) { numUids }
  }`);
  expect(added).toEqual({ addKeeper: { numUids: 3 } });
  const other = await api.data('mutation { addLion(input: [{ nickname: "Nala", roars: 1, keeper: { name: "Bo" } }]) { numUids } }');
  expect(other).toEqual({ addLion: { numUids: 2 } });

  expect(await api.data('{ queryKeeper(order: { asc: name }) { name lions { nickname roars } zebras { nickname stripes } } }')).toEqual({
    queryKeeper: [
      { name: 'Ada', lions: [{ nickname: 'Leo', roars: 3 }], zebras: [{ nickname: 'Stripe', stripes: 40 }] },
      { name: 'Bo', lions: [{ nickname: 'Nala', roars: 1 }], zebras: [] },
    ],
  });
  expect(await api.data('{ queryAnimal(order: { asc: nickname }) { nickname keeper { name } } }')).toEqual({
    queryAnimal: [
      { nickname: 'Leo', keeper: { name: 'Ada' } },
      { nickname: 'Nala', keeper: { name: 'Bo' } },
      { nickname: 'Stripe', keeper: { name: 'Ada' } },
    ],
  });
  expect(await api.data('{ queryZebra { keeper { name zebras { nickname } lions { nickname } } } }')).toEqual({
    queryZebra: [{ keeper: { name: 'Ada', zebras: [{ nickname: 'Stripe' }], lions: [{ nickname: 'Leo' }] } }],
  });
});
