import { GraphQLError } from 'graphql';
import { answeredRelationOf } from '../../src/resolve/custom-objects';
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

describe('shapeCustomResult: relations answered inside an object', () => {
  const NESTED = modelOf(`
    interface Named { name: String! }
    type Person implements Named { key: ID! name: String! team: Team }
    type Robot implements Named { id: ID! name: String! }
    type Team { id: ID! lead: Person members: [Person] named: [Named] mascot: Robot @lambda }
    type Query { team: Team @lambda }
  `);
  const teamField = NESTED.customQueries.find((field) => field.name === 'team')!;
  const relation = (typeName: string, name: string) => NESTED.types.get(typeName)!.fieldsByName.get(name)!;
  const shape = (value: unknown) => shapeCustomResult(NESTED, 'Query', teamField, value, 'lambda resolver "Query.team"') as Record<string, unknown>;

  it.each([
    ['ids stay the edge, as stored', { id: 't1', lead: 'p1', members: ['p2', 'p3'] }, { lead: 'p1', members: ['p2', 'p3'] }],
    ['an object becomes the edge of its ID', { id: 't1', lead: { key: 'p1', name: 'Ada' } }, { lead: 'p1' }],
    ['an object without ID leaves no edge', { id: 't1', lead: { name: 'Ada' } }, { lead: null }],
    ['null stays null', { id: 't1', lead: null, members: null }, { lead: null, members: null }],
    ['a list of objects, ids and nulls keeps the IDs it holds', { id: 't1', members: ['p2', { key: 'p3' }, { name: 'x' }, null] }, { members: ['p2', 'p3'] }],
    ['objects of an interface by __typename', { id: 't1', named: [{ __typename: 'Robot', id: 'r1', name: 'R2' }] }, { named: ['r1'] }],
    ['a custom-logic field is left to its own resolver', { id: 't1', mascot: { id: 'r9' } }, { mascot: { id: 'r9' } }],
  ])('%s', (_case, value, edges) => {
    expect(shape(value)).toEqual({ ...value, ...edges, _id: 't1', __typename: 'Team' });
  });

  it('keeps the answered objects as the relation\'s value, shaped at every depth', () => {
    const team = shape({ id: 't1', lead: { key: 'p1', name: 'Ada', team: { id: 't2' } }, members: [{ name: 'x' }, 'p3', null] });
    const lead = answeredRelationOf(team, relation('Team', 'lead'))!.value as Record<string, unknown>;
    expect(lead).toEqual({ key: 'p1', name: 'Ada', team: 't2', _id: 'p1', __typename: 'Person' });
    expect(answeredRelationOf(lead, relation('Person', 'team'))!.value).toEqual({ id: 't2', _id: 't2', __typename: 'Team' });
    expect(answeredRelationOf(team, relation('Team', 'members'))!.value).toEqual([
      { name: 'x', __typename: 'Person' }, { _id: 'p3', __typename: 'Person' }, null,
    ]);
  });

  it('records nothing for a relation answered with ids, which the store resolves', () => {
    expect(answeredRelationOf(shape({ id: 't1', lead: 'p1', members: ['p2'] }), relation('Team', 'lead'))).toBeUndefined();
    expect(answeredRelationOf(shape({ id: 't1', lead: 'p1', members: ['p2'] }), relation('Team', 'members'))).toBeUndefined();
  });

  const WRONG = 'Query.team: the lambda resolver "Query.team" answered the wrong shape for Team: ';
  it.each([
    [{ lead: 42 }, 'Team.lead of the value is a number (42), not an object of type Person or its ID'],
    [{ lead: ['p1'] }, 'Team.lead of the value is a list, for a field that holds one value'],
    [{ members: 'p1' }, 'Team.members of the value is a string ("p1"), not a list'],
    [{ members: [{ key: 'p1' }, true] }, 'Team.members of the value: item 1 is a boolean (true), not an object of type Person or its ID'],
    [{ named: [{ id: 'r1' }] }, 'Team.named of the value: item 0 needs "__typename" naming one of Person, Robot (the types that implement Named)'],
    [{ lead: { key: 'p1', team: 5 } }, 'Person.team of Team.lead of the value is a number (5), not an object of type Team or its ID'],
  ])('refuses %j: %s', (relations, reason) => {
    let thrown: unknown;
    try {
      shape({ id: 't1', ...relations });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GraphQLError);
    expect((thrown as GraphQLError).message).toBe(WRONG + reason);
    expect((thrown as GraphQLError).extensions.code).toBe('CUSTOM_RESULT_INVALID');
  });
});
