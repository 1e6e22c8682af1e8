import { aggregate } from 'mingo';
import { forMingo } from '../helpers/mingo-lookup.js';
import { AuthenticationError, compileAuthRule, AuthRuleError } from '../../src/auth/index.js';
import { authorizationLine } from './keys.js';
import { planStages, type FilterPlan } from '../../src/query/filter.js';
import type { AuthRule } from '../../src/sdl/model.js';
import { modelOf, RULES_SCHEMA } from './schema.js';

const model = modelOf(RULES_SCHEMA);

const OWNER = { rule: 'query($USER: String!) { queryTask { user(filter: { username: { eq: $USER } }) { __typename } } }' };
const COMPLETED = { rule: 'query { queryTask(filter: { completed: true }) { id } }' };
const ADMIN = { rule: '{$ROLE: { eq: "ADMIN" } }' };

/** Lookup names carry a digest of their pipeline; tables compare them by shape. */
function normalized(plan: FilterPlan): unknown {
  return JSON.parse(JSON.stringify(plan).replace(/__auth_(\w+?)_[0-9a-f]{12}/g, '__auth_$1_#'));
}

describe('compileAuthRule: rule + claims → MongoDB plan', () => {
  test.each<[string, string, AuthRule, Record<string, unknown>, unknown]>([
    [
      'a relation in the rule: an equality $lookup by the stored id, tested with $elemMatch',
      'Task', OWNER, { USER: 'alice' },
      {
        lookups: [{ $lookup: { from: 'User', localField: 'user', foreignField: '_id', as: '__auth_user_#' } }],
        match: { '__auth_user_#': { $elemMatch: { username: { $eq: 'alice' } } } },
      },
    ],
    [
      'a top-level filter only: a plain match (cascade asks the selected scalars to exist)',
      'Task', { rule: 'query { queryTask(filter: { completed: true }) { title } }' }, {},
      { lookups: [], match: { completed: { $eq: true }, title: { $exists: true, $ne: null } } },
    ],
    [
      'the claims lack the variable: nothing matches',
      'Task', OWNER, {},
      { lookups: [], match: { _id: { $in: [] } } },
    ],
    [
      'a claim with another name than the variable: nothing matches',
      'Task', OWNER, { user: 'alice' },
      { lookups: [], match: { _id: { $in: [] } } },
    ],
    ['role rule, claim equal: everything', 'Task', ADMIN, { ROLE: 'ADMIN' }, { lookups: [], match: {} }],
    ['role rule, claim different: nothing', 'Task', ADMIN, { ROLE: 'USER' }, { lookups: [], match: { _id: { $in: [] } } }],
    ['role rule, claim list holding the value: everything', 'Task', ADMIN, { ROLE: ['USER', 'ADMIN'] }, { lookups: [], match: {} }],
    ['role rule, no claim: nothing', 'Task', ADMIN, {}, { lookups: [], match: { _id: { $in: [] } } }],
    ['role rule with in', 'Task', { rule: '{ $ROLE: { in: ["ADMIN", "EDITOR"] } }' }, { ROLE: 'EDITOR' }, { lookups: [], match: {} }],
    ['role rule with regexp', 'Task', { rule: '{ $EMAIL: { regexp: "/@example\\\\.com$/i" } }' }, { EMAIL: 'A@EXAMPLE.COM' }, { lookups: [], match: {} }],
    ['role rule with regexp, no match', 'Task', { rule: '{ $EMAIL: { regexp: "/@example\\\\.com$/" } }' }, { EMAIL: 'a@other.org' }, { lookups: [], match: { _id: { $in: [] } } }],
    [
      'or: either rule',
      'Task', { or: [OWNER, COMPLETED] }, { USER: 'bob' },
      {
        lookups: [{ $lookup: { from: 'User', localField: 'user', foreignField: '_id', as: '__auth_user_#' } }],
        match: { $or: [{ '__auth_user_#': { $elemMatch: { username: { $eq: 'bob' } } } }, { completed: { $eq: true } }] },
      },
    ],
    [
      'and: both rules, merged into one match',
      'Task', { and: [OWNER, COMPLETED] }, { USER: 'bob' },
      {
        lookups: [{ $lookup: { from: 'User', localField: 'user', foreignField: '_id', as: '__auth_user_#' } }],
        match: { '__auth_user_#': { $elemMatch: { username: { $eq: 'bob' } } }, completed: { $eq: true } },
      },
    ],
    ['or with a role rule that passes: everything', 'Task', { or: [OWNER, ADMIN] }, { ROLE: 'ADMIN' }, { lookups: [], match: {} }],
    ['and with a role rule that fails: nothing', 'Task', { and: [COMPLETED, ADMIN] }, { ROLE: 'USER' }, { lookups: [], match: { _id: { $in: [] } } }],
    [
      'not: none of the rule',
      'Task', { not: OWNER }, { USER: 'bob' },
      {
        lookups: [{ $lookup: { from: 'User', localField: 'user', foreignField: '_id', as: '__auth_user_#' } }],
        match: { $nor: [{ '__auth_user_#': { $elemMatch: { username: { $eq: 'bob' } } } }] },
      },
    ],
    ['not of a rule that matches nothing: everything', 'Task', { not: OWNER }, {}, { lookups: [], match: {} }],
    ['not of a passing role rule: nothing', 'Task', { not: ADMIN }, { ROLE: 'ADMIN' }, { lookups: [], match: { _id: { $in: [] } } }],
    [
      'a default value stands in for a missing claim',
      'User', { rule: 'query($USER: String = "bob") { queryUser(filter: { username: { eq: $USER } }) { __typename } }' }, {},
      { lookups: [], match: { username: { $eq: 'bob' } } },
    ],
    [
      'a list claim in an in filter',
      'User', { rule: 'query($USERS: [String!]!) { queryUser(filter: { username: { in: $USERS } }) { __typename } }' }, { USERS: ['alice', 'bob'] },
      { lookups: [], match: { username: { $in: ['alice', 'bob'] } } },
    ],
    [
      'a derived list relation: an equality $lookup on the inverse field whose sub-pipeline stops at the first match',
      'User', { rule: 'query { queryUser { tasks(filter: { completed: true }) { __typename } } }' }, {},
      {
        lookups: [{
          $lookup: {
            from: 'Task',
            localField: '_id',
            foreignField: 'user',
            pipeline: [{ $match: { completed: { $eq: true } } }, { $limit: 1 }, { $project: { _id: 1 } }],
            as: '__auth_tasks_#',
          },
        }],
        match: { '__auth_tasks_#.0': { $exists: true } },
      },
    ],
    [
      'an interface rule applies to the implementing type\'s collection',
      'Note', { rule: 'query($USER: String!) { queryOwned(filter: { owner: { eq: $USER } }) { __typename } }' }, { USER: 'alice' },
      { lookups: [], match: { owner: { $eq: 'alice' } } },
    ],
  ])('%s', (_name, typeName, rule, claims, expected) => {
    expect(normalized(compileAuthRule(model, typeName, rule, claims))).toEqual(expected);
  });

  test.each<[string, string, AuthRule, RegExp]>([
    ['a rule querying another type', 'Task', { rule: 'query { queryUser { __typename } }' }, /must select queryTask; found queryUser/],
    ['an unknown field', 'Task', { rule: 'query { queryTask { owner { __typename } } }' }, /type Task has no field "owner"/],
    ['a filter on a field without @search', 'User', { rule: 'query { queryUser(filter: { name: { eq: "x" } }) { __typename } }' }, /User\.name cannot be filtered/],
    ['a mutation', 'Task', { rule: 'mutation { addTask(input: []) { numUids } }' }, /exactly one query operation/],
    ['an argument other than filter', 'Task', { rule: 'query { queryTask(first: 1) { id } }' }, /only a filter argument, found "first"/],
    ['a filter on a scalar selection', 'Task', { rule: 'query { queryTask { title(filter: {}) } }' }, /Task\.title is not a relation/],
    ['an unknown role operator', 'Task', { rule: '{ $ROLE: { ne: "ADMIN" } }' }, /unknown operator "ne"/],
    ['not GraphQL', 'Task', { rule: 'query { queryTask {' }, /not a valid GraphQL query/],
  ])('refuses %s with a clear AuthRuleError', (_name, typeName, rule, message) => {
    const compile = () => compileAuthRule(model, typeName, rule, { USER: 'alice', ROLE: 'ADMIN' });
    expect(compile).toThrow(AuthRuleError);
    expect(compile).toThrow(message);
  });
});

describe('compileAuthRule: plans run through mingo select the right objects', () => {
  const collections: Record<string, Array<Record<string, unknown>>> = {
    Team: [{ _id: 't1', name: 'red' }, { _id: 't2', name: 'blue' }],
    User: [
      { _id: 'u1', username: 'alice', name: 'Alice', team: 't1' },
      { _id: 'u2', username: 'bob', team: 't2' },
      { _id: 'u3', username: 'carol', name: 'Carol' },
    ],
    Task: [
      { _id: 'k1', title: 'one', completed: false, user: 'u1', tags: ['g1'] },
      { _id: 'k2', title: 'two', completed: true, user: 'u1' },
      { _id: 'k3', title: 'three', completed: true, user: 'u2', tags: ['g2', 'g1'] },
      { _id: 'k4', title: 'four', completed: false, user: 'u3', tags: ['g2'] },
    ],
    Tag: [{ _id: 'g1', label: 'urgent' }, { _id: 'g2', label: 'home' }],
    Note: [{ _id: 'n1', owner: 'alice' }, { _id: 'n2', owner: 'bob' }],
  };

  function idsMatching(typeName: string, rule: AuthRule, claims: Record<string, unknown>): string[] {
    const plan = compileAuthRule(model, typeName, rule, claims);
    const rows = aggregate(collections[typeName], forMingo([...planStages(plan), { $sort: { _id: 1 } }]), {
      collectionResolver: (name: string) => collections[name],
    }) as Array<{ _id: string }>;
    return rows.map((row) => row._id);
  }

  test.each<[string, string, AuthRule, Record<string, unknown>, string[]]>([
    ['owner rule for alice', 'Task', OWNER, { USER: 'alice' }, ['k1', 'k2']],
    ['owner rule for bob', 'Task', OWNER, { USER: 'bob' }, ['k3']],
    ['owner rule without the claim', 'Task', OWNER, {}, []],
    ['owner rule with a differently named claim', 'Task', OWNER, { USERNAME: 'alice' }, []],
    ['owner OR completed', 'Task', { or: [OWNER, COMPLETED] }, { USER: 'alice' }, ['k1', 'k2', 'k3']],
    ['owner AND completed', 'Task', { and: [OWNER, COMPLETED] }, { USER: 'alice' }, ['k2']],
    ['NOT owner', 'Task', { not: OWNER }, { USER: 'alice' }, ['k3', 'k4']],
    ['admin role', 'Task', ADMIN, { ROLE: 'ADMIN' }, ['k1', 'k2', 'k3', 'k4']],
    ['admin role, other role', 'Task', ADMIN, { ROLE: 'USER' }, []],
    ['owner OR admin, as a plain user', 'Task', { or: [OWNER, ADMIN] }, { USER: 'bob', ROLE: 'USER' }, ['k3']],
    ['two levels: the task\'s user is in team red', 'Task', { rule: 'query { queryTask { user { team(filter: { name: { eq: "red" } }) { id } } } }' }, {}, ['k1', 'k2']],
    ['stored list relation: a tag labelled urgent', 'Task', { rule: 'query { queryTask { tags(filter: { label: { eq: "urgent" } }) { id } } }' }, {}, ['k1', 'k3']],
    ['stored list relation, any tag', 'Task', { rule: 'query { queryTask { tags { id } } }' }, {}, ['k1', 'k3', 'k4']],
    ['derived list relation: users with a completed task', 'User', { rule: 'query { queryUser { tasks(filter: { completed: true }) { id } } }' }, {}, ['u1', 'u2']],
    ['derived list relation: members of a team', 'Team', { rule: 'query($USER: String!) { queryTeam { members(filter: { username: { eq: $USER } }) { __typename } } }' }, { USER: 'bob' }, ['t2']],
    ['cascade: users that have a name', 'User', { rule: 'query { queryUser { name } }' }, {}, ['u1', 'u3']],
    ['interface rule', 'Note', { rule: 'query($USER: String!) { queryOwned(filter: { owner: { eq: $USER } }) { __typename } }' }, { USER: 'bob' }, ['n2']],
    ['claims namespace value used twice', 'Task', { and: [OWNER, { rule: 'query($USER: String!) { queryTask { user(filter: { username: { eq: $USER } }) { name } } }' }] }, { USER: 'alice' }, ['k1', 'k2']],
  ])('%s', (_name, typeName, rule, claims, expected) => {
    expect(idsMatching(typeName, rule, claims)).toEqual(expected);
  });
});

describe('compileAuthRule: more plans and exact refusals', () => {
  const listModel = modelOf(`
interface Owned {
  owner: String! @search(by: [hash])
}
type Post implements Owned {
  id: ID!
  labels: [String] @search(by: [hash])
  title: String
}
`);

  test.each<[string, string, AuthRule, Record<string, unknown>, unknown]>([
    ['not of a plain filter', 'Task', { not: COMPLETED }, {}, { lookups: [], match: { $nor: [{ completed: { $eq: true } }] } }],
    ['not of a failing role rule: everything', 'Task', { not: ADMIN }, { ROLE: 'USER' }, { lookups: [], match: {} }],
    ['or of rules that all match nothing: nothing', 'Task', { or: [OWNER, ADMIN] }, {}, { lookups: [], match: { _id: { $in: [] } } }],
    ['and of rules that all match everything: everything', 'Task', { and: [ADMIN, ADMIN] }, { ROLE: 'ADMIN' }, { lookups: [], match: {} }],
    ['a null filter: no condition', 'Task', { rule: 'query { queryTask(filter: null) { __typename } }' }, {}, { lookups: [], match: {} }],
    ['selecting the ID asks nothing of it', 'Task', { rule: 'query { queryTask { id } }' }, {}, { lookups: [], match: {} }],
  ])('%s', (_name, typeName, rule, claims, expected) => {
    expect(normalized(compileAuthRule(model, typeName, rule, claims))).toEqual(expected);
  });

  test.each<[string, string, unknown]>([
    ['a selected list scalar must have an item', 'query { queryPost { labels } }', { lookups: [], match: { 'labels.0': { $exists: true } } }],
    ['a selected scalar must have a value', 'query { queryPost { title } }', { lookups: [], match: { title: { $exists: true, $ne: null } } }],
    ['an interface\'s field selected through the interface query', 'query { queryOwned { owner } }', { lookups: [], match: { owner: { $exists: true, $ne: null } } }],
  ])('%s', (_name, rule, expected) => {
    expect(compileAuthRule(listModel, 'Post', { rule }, {})).toEqual(expected);
  });

  function refusal(run: () => unknown): Error {
    try {
      run();
    } catch (error) {
      return error as Error;
    }
    throw new Error('the rule compiled');
  }

  test.each<[string, string, AuthRule, string]>([
    ['an unknown type', 'Nope', COMPLETED, 'unknown type Nope'],
    ['an empty rule', 'Task', {}, 'Task: an @auth rule needs one of rule, and, or, not'],
    ['another type\'s query, on a type with an interface', 'Note', { rule: 'query { queryUser { __typename } }' }, 'the @auth rule for Note must select queryNote or queryOwned; found queryUser'],
    ['an unknown field', 'Task', { rule: 'query { queryTask { owner { __typename } } }' }, 'queryTask: type Task has no field "owner"'],
    ['an unknown field one level down', 'Task', { rule: 'query { queryTask { user { nickname } } }' }, 'Task.user: type User has no field "nickname"'],
    ['a filter on a scalar selection', 'Task', { rule: 'query { queryTask { title(filter: {}) } }' }, 'queryTask: Task.title is not a relation, so it takes no filter'],
    ['a filter the query layer refuses', 'User', { rule: 'query { queryUser(filter: { name: { eq: "x" } }) { __typename } }' }, 'the @auth rule for User: User.name cannot be filtered: it has no @search index (filter given: {"eq":"x"})'],
  ])('%s: AuthRuleError', (_name, typeName, rule, message) => {
    const error = refusal(() => compileAuthRule(model, typeName, rule, {}));
    expect(error).toBeInstanceOf(AuthRuleError);
    expect(error.message).toBe(message);
  });

  test.each<[string, string, Record<string, unknown>, string]>([
    ['a number where a string is declared, schema without an Authorization line', RULES_SCHEMA, { USER: 42 }, 'invalid token in header of the token: claim USER is a number 42 where String! is declared by the @auth rule of Task'],
    ['a list where a string is declared, named by the configured header', `${RULES_SCHEMA}\n${authorizationLine()}\n`, { USER: ['a'] }, 'invalid token in header X-Auth-Token: claim USER is a list ["a"] where String! is declared by the @auth rule of Task'],
  ])('a claim of the wrong type: 401 AuthenticationError (%s)', (_name, schema, claims, message) => {
    const error = refusal(() => compileAuthRule(modelOf(schema), 'Task', OWNER, claims));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(message);
    expect((error as AuthenticationError).extensions).toEqual({ code: 'UNAUTHENTICATED', http: { status: 401 } });
  });
});
