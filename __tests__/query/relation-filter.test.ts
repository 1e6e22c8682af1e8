import { aggregate } from 'mingo';
import { forMingo } from '../helpers/mingo-lookup.js';
import { compileFilter, planStages, stripTemporaryFields, type FilterPlan } from '../../src/query/filter.js';
import { allOfPlans, anyOfPlans, compileRelationExists, notPlan } from '../../src/query/relation-filter.js';
import type { StoredDocument } from '../../src/store/port.js';
import { model } from './fixtures.js';

const lookupNameOf = (plan: FilterPlan, index = 0): string => (plan.lookups[index].$lookup as { as: string }).as;

describe('compileRelationExists: the semi-join document', () => {
  test('stored single relation: an equality join of the stored id on _id, then the filter, first match only', () => {
    const plan = compileRelationExists(model, 'Task', 'user', { username: { eq: 'ann' } });
    const as = lookupNameOf(plan);
    expect(as).toMatch(/^__related_user_[0-9a-f]{12}$/);
    expect(plan).toEqual({
      lookups: [{
        $lookup: {
          from: 'User',
          localField: 'user',
          foreignField: '_id',
          pipeline: [
            { $match: { username: { $eq: 'ann' } } },
            { $limit: 1 },
            { $project: { _id: 1 } },
          ],
          as,
        },
      }],
      match: { [`${as}.0`]: { $exists: true } },
    });
  });

  test('stored list relation: the equality join matches each id of the stored array', () => {
    const plan = compileRelationExists(model, 'Group', 'members', null);
    expect(plan.lookups[0].$lookup).toEqual(expect.objectContaining({
      from: 'User',
      localField: 'members',
      foreignField: '_id',
      pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }],
    }));
  });

  test('derived relation: an equality join of this _id on the target\'s (indexed) inverse field', () => {
    const plan = compileRelationExists(model, 'User', 'tasks', { completed: true });
    expect(plan.lookups[0].$lookup).toEqual(expect.objectContaining({
      from: 'Task',
      localField: '_id',
      foreignField: 'user',
      pipeline: [
        { $match: { completed: { $eq: true } } },
        { $limit: 1 },
        { $project: { _id: 1 } },
      ],
    }));
  });

  test('the same condition gets the same name; a different filter another', () => {
    const a = compileRelationExists(model, 'Task', 'user', { username: { eq: 'ann' } });
    const b = compileRelationExists(model, 'Task', 'user', { username: { eq: 'ann' } });
    const c = compileRelationExists(model, 'Task', 'user', { username: { eq: 'bob' } });
    expect(lookupNameOf(a)).toBe(lookupNameOf(b));
    expect(lookupNameOf(a)).not.toBe(lookupNameOf(c));
    expect(allOfPlans([a, b]).lookups).toHaveLength(1);
    expect(allOfPlans([a, c]).lookups).toHaveLength(2);
  });

  test('a field that is not a relation is refused', () => {
    expect(() => compileRelationExists(model, 'Task', 'title', null)).toThrow('Task.title is not a relation field');
  });
});

describe('plan combinators', () => {
  const completed = compileFilter(model, 'Task', { completed: true });
  const urgent = compileFilter(model, 'Task', { priority: { ge: 5 } });

  test.each<[string, FilterPlan, FilterPlan]>([
    ['allOfPlans', allOfPlans([completed, urgent]), { lookups: [], match: { completed: { $eq: true }, priority: { $gte: 5 } } }],
    ['anyOfPlans', anyOfPlans([completed, urgent]), { lookups: [], match: { $or: [{ completed: { $eq: true } }, { priority: { $gte: 5 } }] } }],
    ['anyOfPlans of none matches nothing', anyOfPlans([]), { lookups: [], match: { _id: { $in: [] } } }],
    ['allOfPlans of none matches all', allOfPlans([]), { lookups: [], match: {} }],
    ['notPlan', notPlan(completed), { lookups: [], match: { $nor: [{ completed: { $eq: true } }] } }],
  ])('%s', (_name, plan, expected) => {
    expect(plan).toEqual(expected);
  });
});

describe('semi-joins select the right documents (mingo)', () => {
  const users: StoredDocument[] = [
    { _id: 'u1', username: 'ann', age: 31 },
    { _id: 'u2', username: 'bob', age: 25 },
    { _id: 'u3', username: 'cy', age: 40 },
  ];
  const tasks: StoredDocument[] = [
    { _id: 't1', completed: true, user: 'u1' },
    { _id: 't2', completed: false, user: 'u1' },
    { _id: 't3', completed: false, user: 'u2' },
    { _id: 't4', completed: true, user: 'u3' },
    { _id: 't5', completed: true },
  ];
  const groups: StoredDocument[] = [
    { _id: 'g1', members: ['u1', 'u2'] },
    { _id: 'g2', members: ['u2'] },
    { _id: 'g3', members: ['u3'] },
    { _id: 'g4' },
  ];
  const collections: Record<string, StoredDocument[]> = {
    User: users, Task: tasks, Group: groups,
    Book: [{ _id: 'b1', label: 'Dune', owner: 'u1' }],
    Movie: [{ _id: 'm1', label: 'Heat', owner: 'u3' }],
  };
  const run = (typeName: string, plan: FilterPlan): string[] =>
    aggregate(collections[typeName], forMingo(planStages(plan)), { collectionResolver: (name: string) => collections[name] ?? [] })
      .map((document) => String(stripTemporaryFields(document)._id))
      .sort();

  test.each<[string, string, () => FilterPlan, string[]]>([
    ['tasks whose user is ann (stored single)', 'Task', () => compileRelationExists(model, 'Task', 'user', { username: { eq: 'ann' } }), ['t1', 't2']],
    ['tasks with any user', 'Task', () => compileRelationExists(model, 'Task', 'user', {}), ['t1', 't2', 't3', 't4']],
    ['groups with a member over 35 (stored list)', 'Group', () => compileRelationExists(model, 'Group', 'members', { age: { gt: 35 } }), ['g3']],
    ['users with a completed task (derived, single inverse)', 'User', () => compileRelationExists(model, 'User', 'tasks', { completed: true }), ['u1', 'u3']],
    ['users in a group with bob (derived, list inverse)', 'User', () => compileRelationExists(model, 'User', 'groups', { has: ['members'], id: ['g2'] }), ['u2']],
    ['users owning an item labelled Heat (interface target)', 'User', () => compileRelationExists(model, 'User', 'items', { label: { eq: 'Heat' } }), ['u3']],
    [
      'auth-style: completed AND (user is ann OR user is cy)',
      'Task',
      () => allOfPlans([
        compileFilter(model, 'Task', { completed: true }),
        anyOfPlans([
          compileRelationExists(model, 'Task', 'user', { username: { eq: 'ann' } }),
          compileRelationExists(model, 'Task', 'user', { username: { eq: 'cy' } }),
        ]),
      ]),
      ['t1', 't4'],
    ],
    ['not: tasks whose user is not ann (and tasks without a user)', 'Task', () => notPlan(compileRelationExists(model, 'Task', 'user', { username: { eq: 'ann' } })), ['t3', 't4', 't5']],
  ])('%s', (_name, typeName, plan, expected) => {
    expect(run(typeName, plan())).toEqual(expected);
  });
});
