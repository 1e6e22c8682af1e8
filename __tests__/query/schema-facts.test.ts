import { concreteTypesOf, inverseFieldOf, isDerivedRelation, storedPath, typeOf } from '../../src/query/schema-facts.js';
import type { FieldModel } from '../../src/sdl/model.js';
import { fieldOf, validModel } from '../sdl/helpers.js';
import { expectArgumentError } from './argument-error.js';
import { f, pair, schemaModel } from './fixtures.js';

const model = validModel(`
interface Thing { id: ID!  label: String  owner: Human }
type Rock implements Thing { weight: Int @dgraph(pred: "kilograms") }
type Stone implements Thing { size: Int }
type Human { id: ID!  name: String  things: [Thing] @hasInverse(field: owner)  best: Thing }
type Droid { id: ID!  model: String }
union Resident = Human | Droid
`);

describe('typeOf', () => {
  test('a type of the model', () => {
    expect(typeOf(model, 'Rock').name).toBe('Rock');
  });

  test('an unknown type is a client error', () => {
    expectArgumentError(() => typeOf(model, 'Planet'), 'unknown type Planet');
  });
});

describe('storedPath', () => {
  test.each<[string, string, string, string]>([
    ['the ID field is _id', 'Human', 'id', '_id'],
    ['a plain field keeps its name', 'Human', 'name', 'name'],
    ['@dgraph(pred:) names the stored field', 'Rock', 'weight', 'kilograms'],
  ])('%s', (_name, typeName, fieldName, expected) => {
    expect(storedPath(fieldOf(model, typeName, fieldName))).toBe(expected);
  });
});

describe('concreteTypesOf', () => {
  const names = (typeName: string) => concreteTypesOf(model, typeName).map((type) => type.name);
  test.each<[string, string, string[]]>([
    ['an object type: itself', 'Human', ['Human']],
    ['an interface: its implementing types', 'Thing', ['Rock', 'Stone']],
    ['a union: its members', 'Resident', ['Human', 'Droid']],
  ])('%s', (_name, typeName, expected) => {
    expect(names(typeName)).toEqual(expected);
  });

  test('an unknown name is a client error', () => {
    expectArgumentError(() => concreteTypesOf(model, 'Planet'), 'unknown type Planet');
  });

  test('a model without unions (the field is optional)', () => {
    const noUnions = schemaModel([
      { name: 'Item', kind: 'interface', fields: [f('id', 'ID!')] },
      { name: 'Book', implements: ['Item'], fields: [f('id', 'ID!', { inheritedFrom: 'Item' })] },
    ]);
    expect(noUnions.unions).toBeUndefined();
    expect(concreteTypesOf(noUnions, 'Item').map((type) => type.name)).toEqual(['Book']);
  });
});

describe('isDerivedRelation', () => {
  const owned = pair(['Task', 'user'], ['User', 'tasks']);
  const hand = schemaModel([
    { name: 'User', fields: [f('id', 'ID!'), f('name', 'String', { storedHere: false }), f('tasks', '[Task]', owned.derived), f('friends', '[User]', { storedHere: true }), f('best', 'User')] },
    { name: 'Task', fields: [f('id', 'ID!'), f('user', 'User', owned.stored)] },
  ]);
  const field = (name: string): FieldModel => hand.types.get('User')!.fieldsByName.get(name)!;
  test.each<[string, boolean]>([
    ['tasks', true],
    ['friends', false],
    ['best', false],
    ['name', false],
  ])('User.%s → %s', (name, expected) => {
    expect(isDerivedRelation(field(name))).toBe(expected);
  });

  test('the stored side of a pair is not derived', () => {
    expect(isDerivedRelation(hand.types.get('Task')!.fieldsByName.get('user')!)).toBe(false);
  });
});

describe('inverseFieldOf', () => {
  test('the paired field on the target type', () => {
    const inverse = inverseFieldOf(model, model.types.get('Human')!, fieldOf(model, 'Human', 'things'));
    expect(inverse).toBe(fieldOf(model, 'Thing', 'owner'));
  });

  test.each<[string, Partial<FieldModel>, string]>([
    ['no inverse in the model', { inverse: undefined }, 'Human.things is derived (storedHere: false) but has no inverse field in the model'],
    ['an inverse type the model lacks', { inverse: { type: 'Planet', field: 'owner' } }, 'Human.things names the inverse Planet.owner, which the model does not have'],
    ['an inverse field the type lacks', { inverse: { type: 'Rock', field: 'holder' } }, 'Human.things names the inverse Rock.holder, which the model does not have'],
  ])('%s: an internal error, not a client one', (_name, change, message) => {
    const broken = { ...fieldOf(model, 'Human', 'things'), ...change };
    let thrown: unknown;
    try {
      inverseFieldOf(model, model.types.get('Human')!, broken);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).constructor).toBe(Error);
    expect((thrown as Error).message).toBe(message);
  });
});
