import { fieldOf, typeOf, validModel } from './helpers.js';

const MISSION = `type Mission @key(fields: "id") {
  id: ID!
  crew: [Astronaut]
  designation: String!
}
`;

describe('the federation example', () => {
  const spellings = {
    '@extends': `${MISSION}
type Astronaut @key(fields: "id") @extends {
  id: ID! @external
  missions: [Mission]
}
`,
    'extend type': `${MISSION}
extend type Astronaut @key(fields: "id") {
  id: ID! @external
  missions: [Mission]
}
`,
  };

  it.each(Object.entries(spellings))('reads Astronaut written with %s as an extended entity', (_, source) => {
    const model = validModel(source);
    const mission = typeOf(model, 'Mission');
    expect(mission).toMatchObject({ key: 'id', extended: false });
    expect(mission.idField?.name).toBe('id');
    expect(fieldOf(model, 'Mission', 'crew')).toMatchObject({ of: { kind: 'relation', target: 'Astronaut' }, list: true, storedHere: true });

    const astronaut = typeOf(model, 'Astronaut');
    expect(astronaut).toMatchObject({ key: 'id', extended: true });
    expect(astronaut.loc).toEqual({ line: 7, column: source.includes('extend type') ? 13 : 6 });
    expect(fieldOf(model, 'Astronaut', 'id')).toMatchObject({ external: true, isIdField: true });
    expect(fieldOf(model, 'Astronaut', 'missions')).toMatchObject({ external: false, storedHere: true, list: true });
  });
});

describe('other federation shapes', () => {
  it('accepts a String @id key on an extended type', () => {
    const model = validModel(`
      type User @key(fields: "email") @extends {
        email: String! @id @external
        reviews: [Review]
      }
      type Review { id: ID! body: String }
    `);
    expect(typeOf(model, 'User')).toMatchObject({ key: 'email', extended: true });
    expect(typeOf(model, 'User').idField).toBeUndefined();
    expect(fieldOf(model, 'User', 'email')).toMatchObject({ isUniqueId: true, external: true });
  });

  it('records @provides and @requires', () => {
    const model = validModel(`
      type Product @key(fields: "upc") @extends {
        upc: String! @id @external
        name: String @external
        weight: Int @external
        price: Int @external
        shippingEstimate: Int @requires(fields: "price weight") @lambda
      }
      type Review @key(fields: "id") {
        id: ID!
        product: Product @provides(fields: "name")
      }
    `);
    expect(fieldOf(model, 'Product', 'shippingEstimate')).toMatchObject({ requires: ['price', 'weight'], lambda: true });
    expect(fieldOf(model, 'Review', 'product').provides).toEqual(['name']);
    expect(fieldOf(model, 'Product', 'name').external).toBe(true);
  });
});
