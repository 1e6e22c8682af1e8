import { EXCLUDED, targetFilterOf } from '../../src/query/union-filter.js';
import { validModel } from '../sdl/helpers.js';
import { expectArgumentError } from './argument-error.js';
import { model as handBuilt } from './fixtures.js';

/** A relation's `filter` argument → what it asks of one concrete target type; a union reads it as Dgraph's `UFilter`. */

const model = validModel(`
type Human { id: ID!  name: String @search(by: [exact]) }
type Droid { id: ID!  model: String @search(by: [exact]) }
type Starship { id: ID!  length: Int @search }
union Resident = Human | Droid | Starship
interface Thing { id: ID!  label: String @search(by: [exact]) }
type Rock implements Thing { weight: Int }
type Planet { id: ID!  residents: [Resident]  things: [Thing] }
`);

const humanFilter = { name: { eq: 'Leia' } };
const droidFilter = { model: { eq: 'R2' } };

describe('targetFilterOf', () => {
  test.each<[string, string, string, Record<string, unknown> | null | undefined, unknown]>([
    ['an interface target: the argument itself', 'Thing', 'Rock', { label: { eq: 'x' } }, { label: { eq: 'x' } }],
    ['a union without a filter: undefined', 'Resident', 'Human', undefined, undefined],
    ['a union with a null filter: null', 'Resident', 'Human', null, null],
    ['a union: the member\'s own filter', 'Resident', 'Human', { humanFilter, droidFilter }, humanFilter],
    ['a union: another member\'s filter does not apply', 'Resident', 'Droid', { humanFilter }, undefined],
    ['memberTypes lists the member: its filter', 'Resident', 'Droid', { memberTypes: ['Human', 'Droid'], droidFilter }, droidFilter],
    ['memberTypes leaves the member out: excluded', 'Resident', 'Starship', { memberTypes: ['Human', 'Droid'] }, EXCLUDED],
    ['memberTypes as one name (list coercion)', 'Resident', 'Human', { memberTypes: 'Human', humanFilter }, humanFilter],
    ['memberTypes as one name leaves the others out', 'Resident', 'Droid', { memberTypes: 'Human' }, EXCLUDED],
    ['memberTypes null: every member', 'Resident', 'Starship', { memberTypes: null }, undefined],
    ['an empty memberTypes list: no member', 'Resident', 'Human', { memberTypes: [] }, EXCLUDED],
  ])('%s', (_name, target, concrete, filter, expected) => {
    expect(targetFilterOf(model, target, concrete, filter)).toEqual(expected);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['an unknown key', { name: { eq: 'x' } }, 'ResidentFilter has no key "name" (keys: memberTypes, humanFilter, droidFilter, starshipFilter)'],
    ['a member name that is not in the union', { memberTypes: ['Human', 'Rock'] }, 'ResidentFilter.memberTypes: "Rock" is not a member of Resident (members: Human, Droid, Starship)'],
    ['a member name that is not a string', { memberTypes: [7] }, 'ResidentFilter.memberTypes: 7 is not a member of Resident (members: Human, Droid, Starship)'],
    ['an unknown single member name', { memberTypes: 'Wookiee' }, 'ResidentFilter.memberTypes: "Wookiee" is not a member of Resident (members: Human, Droid, Starship)'],
  ])('%s is refused', (_name, filter, message) => {
    expectArgumentError(() => targetFilterOf(model, 'Resident', 'Human', filter), message);
  });

  test('a model without unions (the field is optional): the argument itself', () => {
    const filter = { label: { eq: 'x' } };
    expect(handBuilt.unions).toBeUndefined();
    expect(targetFilterOf(handBuilt, 'Item', 'Book', filter)).toBe(filter);
  });

  test('a wrong member name is refused even for a member that is listed', () => {
    expectArgumentError(() => targetFilterOf(model, 'Resident', 'Droid', { memberTypes: ['Droid', 'Rock'] }), 'ResidentFilter.memberTypes: "Rock" is not a member of Resident (members: Human, Droid, Starship)');
  });
});
