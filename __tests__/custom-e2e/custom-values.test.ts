import { GraphQLError } from 'graphql';
import { customParentOf, shapeCustomResult } from '../../src/resolve/custom-values';
import { buildSchemaModel } from '../../src/sdl/build';
import type { SchemaModel } from '../../src/sdl/model';

/** What custom logic sees as `parent`, and how its answers are checked and prepared for the generated resolvers. */

function modelOf(text: string): SchemaModel {
  const { model, errors } = buildSchemaModel(text);
  if (!model) throw new Error(JSON.stringify(errors));
  return model;
}

const MODEL = modelOf(`
interface Named { name: String! }
type Person implements Named { key: ID! name: String! }
type Robot implements Named { id: ID! name: String! model: String }
type Team { id: ID! lead: Named @lambda members: [Person] @lambda named: [Named] }
extend type Astronaut @key(fields: "callSign") { callSign: String! @id @external name: String @external rank: Int @requires(fields: "name") @lambda }
`);

describe('customParentOf', () => {
  it('sets the ID field from _id and leaves out the service\'s bookkeeping', () => {
    const person = MODEL.types.get('Person')!;
    expect(customParentOf(person, { _id: 'p1', __typename: 'Person', name: 'Ada', _term_name: ['ada'], _fulltext_name: ['ada'] }))
      .toEqual({ key: 'p1', name: 'Ada' });
  });

  it('sets the key of an extended type from _id and keeps the representation\'s fields', () => {
    const astronaut = MODEL.types.get('Astronaut')!;
    expect(customParentOf(astronaut, { __typename: 'Astronaut', callSign: 'Chaika', name: 'Valentina', _id: 'Chaika' }))
      .toEqual({ callSign: 'Chaika', name: 'Valentina' });
  });
});

describe('shapeCustomResult', () => {
  const team = MODEL.types.get('Team')!;
  const field = (name: string) => team.fieldsByName.get(name)!;
  const shape = (name: string, value: unknown) => shapeCustomResult(MODEL, 'Team', field(name), value, 'lambda resolver "Team.x"');

  it('tags objects of a concrete type and takes their id from the ID field', () => {
    expect(shape('members', [{ key: 'p1', name: 'Ada' }, null])).toEqual([{ key: 'p1', name: 'Ada', _id: 'p1', __typename: 'Person' }, null]);
  });

  it('needs __typename for an interface with several implementations, and uses it', () => {
    expect(shape('lead', { __typename: 'Robot', id: 'r1', name: 'R2' })).toEqual({ __typename: 'Robot', id: 'r1', name: 'R2', _id: 'r1' });
    expect(() => shape('lead', { id: 'r1', name: 'R2' })).toThrow(
      'Team.lead: the lambda resolver "Team.x" answered the wrong shape for Named: the value needs "__typename" naming one of Person, Robot (the types that implement Named)',
    );
    expect(() => shape('lead', { __typename: 'Team', id: 't' })).toThrow(GraphQLError);
  });

  it('refuses a list for a single value, a single value for a list, and scalars for objects', () => {
    expect(() => shape('lead', [])).toThrow(/it returned a list for a field that holds one value/);
    expect(() => shape('members', { key: 'p1' })).toThrow(/it returned an object, not a list/);
    expect(() => shape('members', ['p1'])).toThrow(/item 0 is a string \("p1"\), not an object of type Person/);
  });

  it('answers null for null and undefined', () => {
    expect(shape('lead', undefined)).toBeNull();
    expect(shape('members', null)).toBeNull();
  });
});
