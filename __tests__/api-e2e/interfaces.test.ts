import { pluck, useService } from './harness';

/** An interface: queries, filters, order and pages span its implementing types; relations to it too. */

const SCHEMA = `
interface Animal {
  id: ID!
  name: String! @search(by: [exact])
  legs: Int @search
}

type Dog implements Animal {
  breed: String @search(by: [hash])
}

type Bird implements Animal {
  wingspan: Float
}

type Zoo {
  id: ID!
  title: String! @id
  residents: [Animal]
}
`;

const api = useService(SCHEMA);

beforeAll(async () => {
  await api.data(`mutation {
    addDog(input: [{ name: "Rex", legs: 4, breed: "collie" }, { name: "Ace", legs: 4, breed: "pug" }, { name: "Tripod", legs: 3 }]) { numUids }
    addBird(input: [{ name: "Polly", legs: 2, wingspan: 0.5 }, { name: "Kiwi", legs: 2, wingspan: 0.2 }]) { numUids }
  }`);
  const { queryAnimal } = await api.data(`{ queryAnimal { id name } }`);
  const idOf = (name: string) => queryAnimal.find((animal: any) => animal.name === name).id;
  await api.data(`mutation($refs: [AnimalRef]) { addZoo(input: [{ title: "City zoo", residents: $refs }]) { numUids } }`, {
    refs: ['Rex', 'Polly', 'Kiwi', 'Tripod'].map((name) => ({ id: idOf(name) })),
  });
});

test('queryT over an interface spans every implementing type, ordered and paged as one list', async () => {
  const result = await api.data(`{
    all: queryAnimal(order: { asc: name }) { __typename name }
    page: queryAnimal(order: { asc: name }, first: 2, offset: 1) { name }
    byLegs: queryAnimal(order: { desc: legs, then: { asc: name } }, first: 4) { name legs }
  }`);
  expect(result.all).toEqual([
    { __typename: 'Dog', name: 'Ace' }, { __typename: 'Bird', name: 'Kiwi' }, { __typename: 'Bird', name: 'Polly' },
    { __typename: 'Dog', name: 'Rex' }, { __typename: 'Dog', name: 'Tripod' },
  ]);
  expect(pluck(result.page, 'name')).toEqual(['Kiwi', 'Polly']);
  expect(result.byLegs).toEqual([{ name: 'Ace', legs: 4 }, { name: 'Rex', legs: 4 }, { name: 'Tripod', legs: 3 }, { name: 'Kiwi', legs: 2 }]);
});

test('interface filters, fragments on the concrete types, getT and aggregateT over the interface', async () => {
  const result = await api.data(`{
    queryAnimal(filter: { legs: { le: 3 } }, order: { asc: name }) {
      name
      ... on Dog { breed }
      ... on Bird { wingspan }
    }
    aggregateAnimal { count legsSum legsAvg nameMin nameMax }
    fourLegged: aggregateAnimal(filter: { legs: { eq: 4 } }) { count }
  }`);
  expect(result.queryAnimal).toEqual([{ name: 'Kiwi', wingspan: 0.2 }, { name: 'Polly', wingspan: 0.5 }, { name: 'Tripod', breed: null }]);
  expect(result.aggregateAnimal).toEqual({ count: 5, legsSum: 15, legsAvg: 3, nameMin: 'Ace', nameMax: 'Tripod' });
  expect(result.fourLegged.count).toBe(2);

  const { queryDog } = await api.data(`{ queryDog(filter: { breed: { eq: "pug" } }) { id } }`);
  const got = await api.data(`query($id: ID!) { getAnimal(id: $id) { __typename name } }`, { id: queryDog[0].id });
  expect(got.getAnimal).toEqual({ __typename: 'Dog', name: 'Ace' });
});

test('a relation to an interface takes filter, order, first and offset, and has an aggregate', async () => {
  const result = await api.data(`{
    getZoo(title: "City zoo") {
      residents(order: { asc: name }) { __typename name }
      paged: residents(order: { desc: name }, first: 2, offset: 1) { name }
      twoLegged: residents(filter: { legs: { eq: 2 } }, order: { asc: name }) { name }
      residentsAggregate { count legsMin legsMax }
    }
  }`);
  expect(result.getZoo).toEqual({
    residents: [
      { __typename: 'Bird', name: 'Kiwi' }, { __typename: 'Bird', name: 'Polly' },
      { __typename: 'Dog', name: 'Rex' }, { __typename: 'Dog', name: 'Tripod' },
    ],
    paged: [{ name: 'Rex' }, { name: 'Polly' }],
    twoLegged: [{ name: 'Kiwi' }, { name: 'Polly' }],
    residentsAggregate: { count: 4, legsMin: 2, legsMax: 4 },
  });
});

test('updateT and deleteT over the interface reach every implementing type; edges to deleted objects go', async () => {
  const updated = await api.data(`mutation { updateAnimal(input: { filter: { legs: { eq: 2 } }, set: { legs: 1 } }) { numUids } }`);
  expect(updated.updateAnimal.numUids).toBe(2);
  const deleted = await api.data(`mutation { deleteAnimal(filter: { name: { in: ["Polly", "Rex"] } }) { numUids } }`);
  expect(deleted.deleteAnimal.numUids).toBe(2);
  const result = await api.data(`{ getZoo(title: "City zoo") { residents(order: { asc: name }) { name legs } } aggregateAnimal { count } }`);
  expect(result.getZoo.residents).toEqual([{ name: 'Kiwi', legs: 1 }, { name: 'Tripod', legs: 3 }]);
  expect(result.aggregateAnimal.count).toBe(3);
});
