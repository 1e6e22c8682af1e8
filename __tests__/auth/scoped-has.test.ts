/**
 * `has` on a relation under a scope (the caller's query rule per related type): GraphQL filter in, MongoDB
 * plan out, then run with mingo over a few documents.
 */
import { aggregate } from 'mingo';
import { forMingo } from '../helpers/mingo-lookup.js';
import { authPlan } from '../../src/auth/index.js';
import { compileFilter, planStages, type FilterPlan, type RelatedScope } from '../../src/query/filter.js';
import { modelOf, RULES_SCHEMA } from './schema.js';

const OWNER = 'query($USER: String!) { queryTask { user(filter: { username: { eq: $USER } }) { __typename } } }';
const model = modelOf(RULES_SCHEMA.replace('type Task {', `type Task @auth(query: { rule: """${OWNER}""" }) {`));

/** Task narrowed by the owner rule for `user`; every other type open. */
const taskRuleFor = (user: string): RelatedScope => (typeName) =>
  typeName === 'Task' ? authPlan(model, 'Task', 'query', { authenticated: true, variables: { USER: user } }) : undefined;

const normalized = (plan: FilterPlan): unknown => JSON.parse(JSON.stringify(plan).replace(/__(has|auth)_(\w+?)_[0-9a-f]{12}/g, '__$1_$2_#'));

const collections: Record<string, Record<string, unknown>[]> = {
  User: [{ _id: 'u1', username: 'alice' }, { _id: 'u2', username: 'bob' }, { _id: 'u3', username: 'carol' }],
  Task: [{ _id: 't1', title: 'a', completed: false, user: 'u1' }, { _id: 't2', title: 'b', completed: false, user: 'u2' }],
  Tag: [],
  Team: [],
};

function usernames(plan: FilterPlan): string[] {
  const rows = aggregate(collections.User, forMingo(planStages(plan)), { collectionResolver: (name: string) => collections[name] ?? [] });
  return rows.map((row) => String(row.username)).sort();
}

describe('compileFilter with a scope', () => {
  test('no scope, or a scope that narrows no target: the plan is the unscoped one', () => {
    const plain = compileFilter(model, 'User', { has: 'tasks' });
    expect(compileFilter(model, 'User', { has: 'tasks' }, () => undefined)).toEqual(plain);
    expect(plain.lookups).toEqual([
      { $lookup: { from: 'Task', localField: '_id', foreignField: 'user', pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }], as: '__has_tasks' } },
    ]);
  });

  test('a derived relation whose target is narrowed: a sub-pipeline with the rule\'s stages, stopping at the first match', () => {
    const plan = compileFilter(model, 'User', { has: 'tasks' }, taskRuleFor('alice'));
    expect(normalized(plan)).toEqual({
      lookups: [{
        $lookup: {
          from: 'Task',
          localField: '_id',
          foreignField: 'user',
          pipeline: [
            { $lookup: { from: 'User', localField: 'user', foreignField: '_id', as: '__auth_user_#' } },
            { $match: { '__auth_user_#': { $elemMatch: { username: { $eq: 'alice' } } } } },
            { $limit: 1 },
            { $project: { _id: 1 } },
          ],
          as: '__has_tasks_#',
        },
      }],
      match: { '__has_tasks_#.0': { $exists: true } },
    });
  });

  test.each<[string, Record<string, unknown>, string, string[]]>([
    ['has: alice sees only her task', { has: 'tasks' }, 'alice', ['alice']],
    ['has: bob sees only his', { has: 'tasks' }, 'bob', ['bob']],
    ['has: a user with no tasks sees none', { has: 'tasks' }, 'carol', []],
    ['not has: the users without a task the caller can see', { not: { has: 'tasks' } }, 'alice', ['bob', 'carol']],
  ])('%s (run with mingo)', (_name, filter, user, expected) => {
    expect(usernames(compileFilter(model, 'User', filter, taskRuleFor(user)))).toEqual(expected);
  });

  test('the same has with different scopes never shares a lookup name', () => {
    const [alice, bob] = [compileFilter(model, 'User', { has: 'tasks' }, taskRuleFor('alice')), compileFilter(model, 'User', { has: 'tasks' }, taskRuleFor('bob'))];
    const name = (plan: FilterPlan) => (plan.lookups[0]?.$lookup as { as: string }).as;
    expect(name(alice)).not.toBe(name(bob));
    expect(name(alice)).not.toBe('__has_tasks');
  });
});
