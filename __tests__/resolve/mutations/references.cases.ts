import { forgetType, knownId, rememberCreated, type KnownIds } from '../../../src/resolve/mutations/known-ids.js';
import { addIdentity, candidateFilters, collectReferences, noReferences, type References } from '../../../src/resolve/mutations/references.js';
import { modelOf } from './harness';

/** What a mutation's input names before anything is written: candidate objects per type, one-to-one edges, read-ahead answers. */
const model = modelOf(`
type User {
  id: ID!
  name: String! @id
  email: String @id @dgraph(pred: "User.email")
  tasks: [Task] @hasInverse(field: owner)
  badge: Badge
  pet: Pet
}

type Task {
  id: ID!
  title: String! @id
  owner: User
  next: Task
}

type Badge {
  code: String! @id
  holder: User @hasInverse(field: badge)
}

type Cat { id: ID! name: String }
type Dog { id: ID! name: String }
union Pet = Cat | Dog

extend type Reader @key(fields: "handle") {
  handle: String! @id @external
  user: User
}
`);

/** References as plain data: per type its ids and values (by stored field name); the one-to-one edges as `holder.field → target`. */
function plain(references: References) {
  return {
    byType: Object.fromEntries([...references.byType].map(([type, named]) => [type, {
      ids: [...named.ids],
      values: Object.fromEntries([...named.values].map(([field, values]) => [field, [...values]])),
    }])),
    oneToOne: Object.fromEntries([...references.oneToOne].map(([key, edge]) => [key, `${edge.holderType}.${edge.field.name} → ${edge.targetType}`])),
  };
}

describe('addIdentity: an input\'s own identity', () => {
  test.each([
    ['the id and every @id value (by stored name), nulls left out', 'User', { id: 'u1', name: 'ann', email: null }, { User: { ids: ['u1'], values: { name: ['ann'] } } }],
    ['an @id value under its stored name', 'User', { email: 'a@x' }, { User: { ids: [], values: { 'User%2Eemail': ['a@x'] } } }],
    ['an extended type\'s key as an id (the owner\'s id) and as a value', 'Reader', { handle: 'amy' }, { Reader: { ids: ['amy'], values: { handle: ['amy'] } } }],
    ['an extended type without its key', 'Reader', { user: null }, { Reader: { ids: [], values: {} } }],
    ['a union: each member, with the ids the input gives', 'Pet', { id: 'p1' }, { Cat: { ids: ['p1'], values: {} }, Dog: { ids: ['p1'], values: {} } }],
  ])('%s', (_case, typeName, input, expected) => {
    const references = noReferences();
    addIdentity(model, typeName, input, references);
    expect(plain(references)).toEqual({ byType: expected, oneToOne: {} });
  });

  test('values add up across inputs, each once', () => {
    const references = noReferences();
    addIdentity(model, 'Task', { title: 'a' }, references);
    addIdentity(model, 'Task', { title: 'b', id: 't2' }, references);
    addIdentity(model, 'Task', { title: 'a', id: 't2' }, references);
    expect(plain(references).byType).toEqual({ Task: { ids: ['t2'], values: { title: ['a', 'b'] } } });
  });
});

describe('collectReferences: every Ref of an input, nested ones included', () => {
  test('Refs on both sides of relations, union members, and the one-to-one edges they may link', () => {
    const references = noReferences();
    collectReferences(model, 'User', {
      name: 'ignored: the input itself is not a reference',
      tasks: [{ id: 't1' }, { title: 'new', next: { title: 'n2' } }, null],
      badge: { code: 'b1' },
      pet: { dogRef: { id: 'd1' } },
    }, references);
    expect(plain(references)).toEqual({
      byType: {
        Task: { ids: ['t1'], values: { title: ['new', 'n2'] } },
        Badge: { ids: [], values: { code: ['b1'] } },
        Dog: { ids: ['d1'], values: {} },
      },
      oneToOne: { 'Badge.holder': 'Badge.holder → User' },
    });
  });

  test('a one-to-one edge from its stored side; a single edge whose partner is a list is not one-to-one', () => {
    const references = noReferences();
    collectReferences(model, 'Badge', { holder: { name: 'ann' } }, references);
    collectReferences(model, 'Task', { owner: { name: 'bob' }, next: { title: 'x' } }, references);
    expect(plain(references)).toEqual({
      byType: { User: { ids: [], values: { name: ['ann', 'bob'] } }, Task: { ids: [], values: { title: ['x'] } } },
      oneToOne: { 'Badge.holder': 'Badge.holder → User' },
    });
  });

  test('a scalar where a Ref belongs is no Ref: it names nothing', () => {
    const references = noReferences();
    collectReferences(model, 'User', { pet: 'd1', badge: 7, tasks: ['t1', false] }, references);
    expect(plain(references)).toEqual({ byType: {}, oneToOne: { 'Badge.holder': 'Badge.holder → User' } });
  });

  test('null and absent relations, and an unknown type, name nothing', () => {
    const references = noReferences();
    collectReferences(model, 'User', { tasks: null, badge: undefined }, references);
    collectReferences(model, 'Nope', { tasks: [{ id: 'x' }] }, references);
    expect(plain(references)).toEqual({ byType: {}, oneToOne: {} });
  });
});

describe('candidateFilters: one read per batch of ids or of one field\'s values', () => {
  test.each([
    ['nothing named', undefined, 2, []],
    ['ids and values, in batches of two', { ids: new Set(['a', 'b', 'c']), values: new Map([['name', new Set<unknown>(['x', 'y'])], ['code', new Set<unknown>([1])]]) }, 2, [
      { _id: { $in: ['a', 'b'] } }, { _id: { $in: ['c'] } }, { name: { $in: ['x', 'y'] } }, { code: { $in: [1] } },
    ]],
    ['empty sets', { ids: new Set<string>(), values: new Map([['name', new Set<unknown>()]]) }, 2, []],
  ])('%s', (_case, named, size, expected) => {
    expect(candidateFilters(named, size)).toEqual(expected);
  });

  test('the default batch is 10,000', () => {
    const ids = Array.from({ length: 10_001 }, (_, index) => `id${index}`);
    expect(candidateFilters({ ids: new Set(ids), values: new Map() }).map((filter) => (filter._id as { $in: string[] }).$in.length)).toEqual([10_000, 1]);
  });
});

describe('known ids: answers read ahead, kept current', () => {
  const known = (): KnownIds => new Map([['User', new Map([['name', new Map<unknown, string | null>([['ann', 'u1'], ['bob', null]])]])]]);
  const user = model.types.get('User')!;

  test.each([
    ['a value held', 'User', 'name', 'ann', 'u1'],
    ['a value no object holds', 'User', 'name', 'bob', null],
    ['a value not read ahead', 'User', 'name', 'cid', undefined],
    ['a field not read ahead', 'User', 'email', 'ann', undefined],
    ['a type not read ahead', 'Task', 'name', 'ann', undefined],
  ])('knownId: %s', (_case, typeName, field, value, expected) => {
    expect(knownId(known(), typeName, field, value)).toBe(expected);
  });

  test('knownId without read-ahead answers undefined', () => {
    expect(knownId(undefined, 'User', 'name', 'ann')).toBeUndefined();
  });

  test('a created object takes its values in the fields read ahead; null values and other fields are left alone', () => {
    const answers = known();
    rememberCreated(answers, user, { _id: 'u2', name: 'bob', 'User%2Eemail': 'b@x' });
    rememberCreated(answers, user, { _id: 'u3', name: null });
    expect(knownId(answers, 'User', 'name', 'bob')).toBe('u2');
    expect(knownId(answers, 'User', 'name', null)).toBeUndefined();
    expect(answers.get('User')!.has('User%2Eemail')).toBe(false);
    rememberCreated(answers, model.types.get('Task')!, { _id: 't1', title: 'x' });
    expect(answers.has('Task')).toBe(false);
    expect(() => rememberCreated(undefined, user, { _id: 'u4', name: 'z' })).not.toThrow();
  });

  test('an update forgets the type\'s answers', () => {
    const answers = known();
    forgetType(answers, 'User');
    expect(knownId(answers, 'User', 'name', 'ann')).toBeUndefined();
    expect(() => forgetType(undefined, 'User')).not.toThrow();
  });
});
