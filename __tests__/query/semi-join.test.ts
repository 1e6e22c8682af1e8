import type { FilterPlan } from '../../src/query/filter.js';
import { allOfPlans, anyOfPlans, compileRelationExists } from '../../src/query/relation-filter.js';
import { relatedExists } from '../../src/query/semi-join.js';
import type { TypeModel } from '../../src/sdl/model.js';
import { validModel } from '../sdl/helpers.js';

/** `relatedExists`, the semi-join behind `@cascade` and `has` under rules: which join, which test, which names. */

const model = validModel(`
type Author { id: ID!  name: String  country: Country  posts: [Post]  pets: [Animal]  passport: Passport  ghosts: [Ghost] }
type Country { id: ID!  name: String @search(by: [exact]) }
type Post { id: ID!  title: String  author: Author @hasInverse(field: posts) }
type Passport { id: ID!  number: String  holder: Author @hasInverse(field: passport) }
interface Animal { id: ID!  name: String }
type Dog implements Animal { breed: String }
type Cat implements Animal { lives: Int }
interface Ghost { id: ID!  name: String }
`);

const author = model.types.get('Author')!;
const fieldOf = (name: string) => author.fieldsByName.get(name)!;
const everything = (): FilterPlan => ({ lookups: [], match: {} });
const named = (match: Record<string, unknown>) => (): FilterPlan => ({ lookups: [], match });
const asOf = (plan: FilterPlan, index = 0): string => (plan.lookups[index]!.$lookup as { as: string }).as;

describe('relatedExists: a few related objects fetched by id and tested with $elemMatch', () => {
  test('a stored single relation, any related object: the join and "the first one exists"', () => {
    const plan = relatedExists(model, author, fieldOf('country'), everything, '__x');
    const as = asOf(plan);
    expect(as).toMatch(/^__x_country_[0-9a-f]{12}$/);
    expect(plan).toEqual({
      lookups: [{ $lookup: { from: 'Country', localField: 'country', foreignField: '_id', as } }],
      match: { [`${as}.0`]: { $exists: true } },
    });
  });

  test('a stored list with a condition: $elemMatch over the joined objects', () => {
    const plan = relatedExists(model, author, fieldOf('pets'), named({ name: { $eq: 'Rex' } }), '__x');
    const [dogs, cats] = [asOf(plan, 0), asOf(plan, 1)];
    expect(plan).toEqual({
      lookups: [
        { $lookup: { from: 'Dog', localField: 'pets', foreignField: '_id', as: dogs } },
        { $lookup: { from: 'Cat', localField: 'pets', foreignField: '_id', as: cats } },
      ],
      match: { $or: [{ [dogs]: { $elemMatch: { name: { $eq: 'Rex' } } } }, { [cats]: { $elemMatch: { name: { $eq: 'Rex' } } } }] },
    });
    expect(dogs).not.toBe(cats);
  });

  test('a derived single relation: this _id joined on the target\'s inverse field', () => {
    const plan = relatedExists(model, author, fieldOf('passport'), named({ number: { $ne: null } }), '__x');
    const as = asOf(plan);
    expect(plan).toEqual({
      lookups: [{ $lookup: { from: 'Passport', localField: '_id', foreignField: 'holder', as } }],
      match: { [as]: { $elemMatch: { number: { $ne: null } } } },
    });
  });
});

describe('relatedExists: a sub-pipeline that stops at the first match', () => {
  test('a derived list: filtered in the join, first match only', () => {
    const plan = relatedExists(model, author, fieldOf('posts'), named({ title: { $eq: 'x' } }), '__x');
    const as = asOf(plan);
    expect(plan).toEqual({
      lookups: [{
        $lookup: { from: 'Post', localField: '_id', foreignField: 'author', pipeline: [{ $match: { title: { $eq: 'x' } } }, { $limit: 1 }, { $project: { _id: 1 } }], as },
      }],
      match: { [`${as}.0`]: { $exists: true } },
    });
  });

  test('a derived list without a condition: no $match stage', () => {
    const plan = relatedExists(model, author, fieldOf('posts'), everything, '__x');
    expect((plan.lookups[0]!.$lookup as { pipeline: unknown }).pipeline).toEqual([{ $limit: 1 }, { $project: { _id: 1 } }]);
  });

  test('a target condition with lookups of its own: they run inside the join, before the match', () => {
    const inner = { $lookup: { from: 'Country', localField: 'country', foreignField: '_id', as: '__inner' } };
    const plan = relatedExists(model, author, fieldOf('country'), () => ({ lookups: [inner], match: { '__inner.0': { $exists: true } } }), '__x');
    const as = asOf(plan);
    expect(plan).toEqual({
      lookups: [{
        $lookup: {
          from: 'Country', localField: 'country', foreignField: '_id',
          pipeline: [inner, { $match: { '__inner.0': { $exists: true } } }, { $limit: 1 }, { $project: { _id: 1 } }],
          as,
        },
      }],
      match: { [`${as}.0`]: { $exists: true } },
    });
  });
});

describe('relatedExists: names', () => {
  const nameOf = (field: string, plan: () => FilterPlan, prefix = '__x') => asOf(relatedExists(model, author, fieldOf(field), plan, prefix));

  test('the same condition twice: the same name', () => {
    expect(nameOf('posts', named({ title: { $eq: 'x' } }))).toBe(nameOf('posts', named({ title: { $eq: 'x' } })));
    expect(nameOf('country', named({ name: { $eq: 'x' } }))).toBe(nameOf('country', named({ name: { $eq: 'x' } })));
  });

  test.each<[string, string, string]>([
    ['another condition on a derived list', nameOf('posts', named({ title: { $eq: 'x' } })), nameOf('posts', named({ title: { $eq: 'y' } }))],
    ['another condition on a stored relation', nameOf('country', named({ name: { $eq: 'x' } })), nameOf('country', named({ name: { $eq: 'y' } }))],
    ['a condition and none', nameOf('country', named({ name: { $eq: 'x' } })), nameOf('country', everything)],
    ['another prefix', nameOf('country', everything, '__a'), nameOf('country', everything, '__b')],
  ])('%s: different names', (_name, first, second) => {
    expect(first).not.toBe(second);
  });

  test('the target type is part of the name: one condition on two implementing types, two names', () => {
    const plan = relatedExists(model, author, fieldOf('pets'), everything, '__x');
    expect(asOf(plan, 0)).not.toBe(asOf(plan, 1));
    expect(asOf(plan, 0)).toMatch(/^__x_pets_[0-9a-f]{12}$/);
  });

  test('each concrete target gets its own plan', () => {
    const seen: string[] = [];
    relatedExists(model, author, fieldOf('pets'), (target: TypeModel) => {
      seen.push(target.name);
      return everything();
    }, '__x');
    expect(seen).toEqual(['Dog', 'Cat']);
  });
});

describe('relations to an interface nobody implements match nothing', () => {
  test('relatedExists', () => {
    expect(relatedExists(model, author, fieldOf('ghosts'), everything, '__x')).toEqual({ lookups: [], match: { _id: { $in: [] } } });
  });

  test('compileRelationExists', () => {
    expect(compileRelationExists(model, 'Author', 'ghosts', null)).toEqual({ lookups: [], match: { _id: { $in: [] } } });
  });
});

describe('compileRelationExists: names tell joins apart', () => {
  test('two filters on one relation: different names', () => {
    const stored = compileRelationExists(model, 'Author', 'country', { name: { eq: 'x' } });
    const other = compileRelationExists(model, 'Author', 'country', { name: { eq: 'y' } });
    expect(asOf(stored)).toMatch(/^__related_country_[0-9a-f]{12}$/);
    expect(asOf(stored)).not.toBe(asOf(other));
  });

  test('an interface target: one join per implementing type, any of them', () => {
    const plan = compileRelationExists(model, 'Author', 'pets', null);
    const [dogs, cats] = [asOf(plan, 0), asOf(plan, 1)];
    expect(dogs).not.toBe(cats);
    expect(plan.match).toEqual({ $or: [{ [`${dogs}.0`]: { $exists: true } }, { [`${cats}.0`]: { $exists: true } }] });
    expect(plan.lookups.map((stage) => (stage.$lookup as { from: string }).from)).toEqual(['Dog', 'Cat']);
  });
});

describe('allOfPlans / anyOfPlans: lookups without a name are all kept, named ones once', () => {
  const unwindA = { $unwind: '$a' };
  const unwindB = { $unwind: '$b' };
  const named1 = { $lookup: { from: 'X', as: 'n1' } };

  test.each<[string, FilterPlan[], unknown[]]>([
    ['two unnamed stages of one plan', [{ lookups: [unwindA, unwindB], match: {} }], [unwindA, unwindB]],
    ['unnamed stages of two plans', [{ lookups: [unwindA], match: {} }, { lookups: [unwindB], match: {} }], [unwindA, unwindB]],
    ['stage 1 of plan 0 and stage 0 of plan 1', [{ lookups: [named1, unwindA], match: {} }, { lookups: [unwindB], match: {} }], [named1, unwindA, unwindB]],
    ['a lookup named twice runs once', [{ lookups: [named1], match: { a: 1 } }, { lookups: [named1], match: { b: 1 } }], [named1]],
  ])('%s', (_name, plans, expected) => {
    expect(allOfPlans(plans).lookups).toEqual(expected);
    expect(anyOfPlans(plans).lookups).toEqual(expected);
  });

  test('a $lookup whose "as" is not text counts as unnamed', () => {
    const odd = { $lookup: { from: 'X', as: 7 } };
    expect(allOfPlans([{ lookups: [odd], match: {} }, { lookups: [odd], match: {} }]).lookups).toEqual([odd, odd]);
  });

  test('matches: all of them, any of them', () => {
    const plans: FilterPlan[] = [{ lookups: [], match: { a: 1 } }, { lookups: [], match: { b: 2 } }];
    expect(allOfPlans(plans).match).toEqual({ a: 1, b: 2 });
    expect(anyOfPlans(plans).match).toEqual({ $or: [{ a: 1 }, { b: 2 }] });
    expect(anyOfPlans([]).match).toEqual({ _id: { $in: [] } });
  });
});

describe('compileRelationExists: a filter that reaches across another relation', () => {
  test('its own lookups run inside the join, before its match', () => {
    const plan = compileRelationExists(model, 'Post', 'author', { has: ['posts'] });
    const as = asOf(plan);
    const pipeline = (plan.lookups[0]!.$lookup as { pipeline: Array<Record<string, unknown>> }).pipeline;
    expect(pipeline).toEqual([
      { $lookup: { from: 'Post', localField: '_id', foreignField: 'author', pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }], as: '__has_posts' } },
      { $match: { '__has_posts.0': { $exists: true } } },
      { $limit: 1 },
      { $project: { _id: 1 } },
    ]);
    expect(plan.match).toEqual({ [`${as}.0`]: { $exists: true } });
  });
});
