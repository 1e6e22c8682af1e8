import { compileCascade, isEmptyCascade, NO_CASCADE, type CascadeCondition } from '../../src/query/cascade.js';
import { expectArgumentError } from './argument-error.js';
import { QueryArgumentError } from '../../src/query/errors.js';
import type { FilterPlan } from '../../src/query/filter.js';
import { validModel } from '../sdl/helpers';

/** `@cascade` conditions in, the store query out (GraphQL's part, the condition, is read by resolve/cascade.ts). */

const model = validModel(`
interface Animal { id: ID!  name: String }
type Dog implements Animal { breed: String }
type Cat implements Animal { lives: Int }
type Author {
  id: ID!
  name: String! @search(by: [hash])
  tags: [String]
  country: Country
  posts: [Post] @hasInverse(field: author)
  pets: [Animal]
}
type Post { id: ID!  title: String! @search(by: [term])  text: String  author: Author }
type Country { id: ID!  name: String }
`);

/** Lookup names carry a digest; the table shows them as `<as>` so the shape stays readable. */
function readable(plan: FilterPlan): unknown {
  const names = plan.lookups.map((stage) => (stage.$lookup as { as: string }).as);
  let text = JSON.stringify(plan);
  names.forEach((name, index) => {
    text = text.split(name).join(`<as${index}>`);
  });
  return JSON.parse(text);
}

const cases: Array<[string, string, CascadeCondition, unknown]> = [
  ['scalars: a value, not null', 'Author', { present: ['name'], related: [] }, { lookups: [], match: { name: { $ne: null } } }],
  ['a scalar list: at least one item', 'Author', { present: ['tags'], related: [] }, { lookups: [], match: { 'tags.0': { $exists: true } } }],
  ['the ID is always there', 'Author', { present: ['id', 'name'], related: [] }, { lookups: [], match: { name: { $ne: null } } }],
  [
    'a stored single relation: an equality join on the stored id',
    'Author',
    { present: [], related: [{ field: 'country', nested: {} }] },
    {
      lookups: [{ $lookup: { from: 'Country', localField: 'country', foreignField: '_id', as: '<as0>' } }],
      match: { '<as0>.0': { $exists: true } },
    },
  ],
  [
    'a stored single relation whose object must have a field: $elemMatch on the joined object',
    'Author',
    { present: [], related: [{ field: 'country', nested: { Country: { present: ['name'], related: [] } } }] },
    {
      lookups: [{ $lookup: { from: 'Country', localField: 'country', foreignField: '_id', as: '<as0>' } }],
      match: { '<as0>': { $elemMatch: { name: { $ne: null } } } },
    },
  ],
  [
    'a derived list relation with the field\'s filter and the nested cascade: a join on the inverse field, first match only',
    'Author',
    { present: ['name'], related: [{ field: 'posts', filter: { title: { anyofterms: 'nothing' } }, nested: { Post: { present: ['text'], related: [] } } }] },
    {
      lookups: [{
        $lookup: {
          from: 'Post',
          localField: '_id',
          foreignField: 'author',
          pipeline: [{ $match: { _term_title: { $in: ['nothing'] }, text: { $ne: null } } }, { $limit: 1 }, { $project: { _id: 1 } }],
          as: '<as0>',
        },
      }],
      match: { name: { $ne: null }, '<as0>.0': { $exists: true } },
    },
  ],
  [
    'an interface target: one join per implementing type, any of them keeps the parent',
    'Author',
    { present: [], related: [{ field: 'pets', nested: { Dog: { present: ['breed'], related: [] } } }] },
    {
      lookups: [
        { $lookup: { from: 'Dog', localField: 'pets', foreignField: '_id', as: '<as0>' } },
        { $lookup: { from: 'Cat', localField: 'pets', foreignField: '_id', as: '<as1>' } },
      ],
      match: { $or: [{ '<as0>': { $elemMatch: { breed: { $ne: null } } } }, { '<as1>.0': { $exists: true } }] },
    },
  ],
];

describe('compileCascade', () => {
  test.each(cases)('%s', (_name, typeName, condition, expected) => {
    expect(readable(compileCascade(model, typeName, condition))).toEqual(expected);
  });

  test('two levels down: the nested relation becomes a join inside the join', () => {
    const plan = compileCascade(model, 'Post', { present: [], related: [{ field: 'author', nested: { Author: { present: [], related: [{ field: 'country', nested: {} }] } } }] });
    const outer = plan.lookups[0]!.$lookup as { from: string; localField: string; foreignField: string; pipeline: Array<Record<string, any>>; as: string };
    expect([outer.from, outer.localField, outer.foreignField]).toEqual(['Author', 'author', '_id']);
    const inner = outer.pipeline[0]!.$lookup as { as: string };
    expect(outer.pipeline).toEqual([
      { $lookup: { from: 'Country', localField: 'country', foreignField: '_id', as: inner.as } },
      { $match: { [`${inner.as}.0`]: { $exists: true } } },
      { $limit: 1 },
      { $project: { _id: 1 } },
    ]);
    expect(plan.match).toEqual({ [`${outer.as}.0`]: { $exists: true } });
  });

  test('the caller\'s rule on the related type narrows which related objects count', () => {
    const scope = (typeName: string): FilterPlan | undefined => (typeName === 'Post' ? { lookups: [], match: { text: { $eq: 'public' } } } : undefined);
    const plan = compileCascade(model, 'Author', { present: [], related: [{ field: 'posts', nested: {} }] }, scope);
    expect((plan.lookups[0]!.$lookup as { pipeline: unknown }).pipeline).toEqual([{ $match: { text: { $eq: 'public' } } }, { $limit: 1 }, { $project: { _id: 1 } }]);
  });

  test.each([
    ['an unknown field', { present: ['title'], related: [] }, '@cascade: type Author has no field "title"'],
    ['a relation required as a value', { present: ['posts'], related: [] }, '@cascade: Author.posts is a relation; require it through its related objects'],
    ['a scalar required as a relation', { present: [], related: [{ field: 'name', nested: {} }] }, '@cascade: Author.name is not a relation'],
  ])('%s is refused', (_name, condition, message) => {
    expect(() => compileCascade(model, 'Author', condition as CascadeCondition)).toThrow(new QueryArgumentError(message));
  });
});

describe('compileCascade: what a level can and cannot require', () => {
  const zoo = validModel(`
type Human { id: ID!  name: String @search(by: [exact]) }
type Droid { id: ID!  model: String }
union Resident = Human | Droid
type Planet {
  id: ID!
  name: String
  motto: String @lambda
  residents: [Resident]
}
`);

  test('a field this service does not keep (a @lambda field) is not required', () => {
    expect(compileCascade(zoo, 'Planet', { present: ['motto', 'name'], related: [] })).toEqual({ lookups: [], match: { name: { $ne: null } } });
  });

  test('a union member that memberTypes leaves out keeps no parent; the listed one does', () => {
    const plan = compileCascade(zoo, 'Planet', { present: [], related: [{ field: 'residents', filter: { memberTypes: ['Droid'] }, nested: {} }] });
    const [humans, droids] = plan.lookups.map((stage) => (stage.$lookup as { as: string }).as);
    expect(plan).toEqual({
      lookups: [
        { $lookup: { from: 'Human', localField: 'residents', foreignField: '_id', as: humans } },
        { $lookup: { from: 'Droid', localField: 'residents', foreignField: '_id', as: droids } },
      ],
      match: { $or: [{ [humans]: { $elemMatch: { _id: { $in: [] } } } }, { [`${droids}.0`]: { $exists: true } }] },
    });
  });

  test('a union member\'s own filter applies to its objects only', () => {
    const plan = compileCascade(zoo, 'Planet', { present: [], related: [{ field: 'residents', filter: { humanFilter: { name: { eq: 'Leia' } } }, nested: {} }] });
    const [humans, droids] = plan.lookups.map((stage) => (stage.$lookup as { as: string }).as);
    expect(plan.match).toEqual({ $or: [{ [humans]: { $elemMatch: { name: { $eq: 'Leia' } } } }, { [`${droids}.0`]: { $exists: true } }] });
  });

  test('lookup names start with __cascade and the field', () => {
    const plan = compileCascade(model, 'Author', { present: [], related: [{ field: 'country', nested: {} }] });
    expect((plan.lookups[0]!.$lookup as { as: string }).as).toMatch(/^__cascade_country_[0-9a-f]{12}$/);
  });

  test('the rule on the related type and the nested cascade both apply to a related object', () => {
    const scope = (typeName: string): FilterPlan | undefined => (typeName === 'Country' ? { lookups: [], match: { public: true } } : undefined);
    const plan = compileCascade(model, 'Author', { present: [], related: [{ field: 'country', nested: { Country: { present: ['name'], related: [] } } }] }, scope);
    const as = (plan.lookups[0]!.$lookup as { as: string }).as;
    expect(plan.match).toEqual({ [as]: { $elemMatch: { public: true, name: { $ne: null } } } });
  });

  test('errors are client errors with the exact message', () => {
    expectArgumentError(() => compileCascade(model, 'Author', { present: ['nope'], related: [] }), '@cascade: type Author has no field "nope"');
    expectArgumentError(() => compileCascade(model, 'Author', { present: [], related: [{ field: 'nope', nested: {} }] }), '@cascade: type Author has no field "nope"');
  });
});

describe('isEmptyCascade', () => {
  test.each<[CascadeCondition, boolean]>([
    [{ present: [], related: [] }, true],
    [NO_CASCADE, true],
    [{ present: ['name'], related: [] }, false],
    [{ present: [], related: [{ field: 'posts', nested: {} }] }, false],
  ])('%j → %s', (condition, expected) => {
    expect(isEmptyCascade(condition)).toBe(expected);
  });
});
