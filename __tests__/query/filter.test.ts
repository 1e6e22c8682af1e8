import { compileFilter, dropTemporaryFields, QueryArgumentError, stripTemporaryFields, type FilterPlan } from '../../src/query/filter.js';
import { buildSchemaModel } from '../../src/sdl/build.js';
import { f, model, schemaModel } from './fixtures.js';

/** TCK style: GraphQL filter argument in → exact MongoDB query document out. */

const match = (typeName: string, filter: Record<string, unknown> | null | undefined) => {
  const plan = compileFilter(model, typeName, filter);
  expect(plan.lookups).toEqual([]);
  return plan.match;
};

describe('field operators by @search index', () => {
  test.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    ['User', 'hash eq', { username: { eq: 'ann' } }, { username: { $eq: 'ann' } }],
    ['User', 'hash in', { username: { in: ['ann', 'bob'] } }, { username: { $in: ['ann', 'bob'] } }],
    ['User', 'a null in `in` stands for "no value", as eq: null does', { username: { in: ['ann', null] } }, { $or: [{ username: { $in: ['ann'] } }, { username: { $eq: null } }] }],
    ['User', 'in: [null] alone: objects without a value', { username: { in: [null] } }, { $or: [{ username: { $in: [] } }, { username: { $eq: null } }] }],
    ['User', 'eq: null is Dgraph\'s not-has: objects without a value', { username: { eq: null } }, { username: { $eq: null } }],
    ['User', 'any other operator given null is ignored', { age: { le: null, between: null } }, {}],
    ['Task', 'eq: null on a list field: no items', { tags: { eq: null } }, { 'tags.0': { $exists: false } }],
    ['Task', 'in: [null] on a list field', { tags: { in: [null, 'x'] } }, { $or: [{ tags: { $in: ['x'] } }, { 'tags.0': { $exists: false } }] }],
    ['User', 'empty in matches nothing', { username: { in: [] } }, { username: { $in: [] } }],
    ['User', 'exact eq', { name: { eq: 'Ann' } }, { name: { $eq: 'Ann' } }],
    ['User', 'exact le', { name: { le: 'M' } }, { name: { $lte: 'M' } }],
    ['User', 'exact lt', { name: { lt: 'M' } }, { name: { $lt: 'M' } }],
    ['User', 'exact ge', { name: { ge: 'M' } }, { name: { $gte: 'M' } }],
    ['User', 'exact gt', { name: { gt: 'M' } }, { name: { $gt: 'M' } }],
    ['User', 'exact between', { name: { between: { min: 'A', max: 'M' } } }, { name: { $gte: 'A', $lte: 'M' } }],
    ['User', 'exact in', { name: { in: ['Ann'] } }, { name: { $in: ['Ann'] } }],
    ['User', 'int eq', { age: { eq: 30 } }, { age: { $eq: 30 } }],
    ['User', 'int between', { age: { between: { min: 18, max: 30 } } }, { age: { $gte: 18, $lte: 30 } }],
    ['User', 'int in', { age: { in: [1, 2] } }, { age: { $in: [1, 2] } }],
    ['Task', 'float gt', { score: { gt: 0.5 } }, { score: { $gt: 0.5 } }],
    ['Task', 'int64 le', { size: { le: 9007199254740991 } }, { size: { $lte: 9007199254740991 } }],
  ])('%s %s: %j', (typeName, _name, filter, expected) => {
    expect(match(typeName, filter)).toEqual(expected);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['allofterms', { title: { allofterms: 'Buy MILK, buy' } }, { _term_title: { $all: ['buy', 'milk'] } }],
    ['anyofterms', { title: { anyofterms: 'milk eggs' } }, { _term_title: { $in: ['milk', 'eggs'] } }],
    ['allofterms of no terms matches nothing', { title: { allofterms: ' , ' } }, { _id: { $in: [] } }],
    ['alloftext stems and drops stop words', { title: { alloftext: 'the running dogs' } }, { _fulltext_title: { $all: ['run', 'dog'] } }],
    ['anyoftext', { title: { anyoftext: 'connected cats' } }, { _fulltext_title: { $in: ['connect', 'cat'] } }],
    ['anyoftext of only stop words matches nothing', { title: { anyoftext: 'the and of' } }, { _id: { $in: [] } }],
    ['term and fulltext on one field combine', { title: { anyofterms: 'milk', alloftext: 'running' } }, { _term_title: { $in: ['milk'] }, _fulltext_title: { $all: ['run'] } }],
    ['regexp', { description: { regexp: '/^buy.*milk$/' } }, { description: { $regex: '^buy.*milk$' } }],
    ['regexp with flag', { description: { regexp: '/milk/i' } }, { description: { $regex: 'milk', $options: 'i' } }],
    ['regexp keeps inner slashes', { description: { regexp: '/a\\/b/' } }, { description: { $regex: 'a\\/b' } }],
    ['Boolean is a plain value', { completed: true }, { completed: { $eq: true } }],
    ['Boolean false', { completed: false }, { completed: { $eq: false } }],
    ['DateTime normalises to ISO UTC', { due: { ge: '2026-01-31T13:00:00+01:00' } }, { due: { $gte: '2026-01-31T12:00:00.000Z' } }],
    ['DateTime between', { due: { between: { min: '2026-01-01', max: '2026-02-01T00:00:00Z' } } }, { due: { $gte: '2026-01-01T00:00:00.000Z', $lte: '2026-02-01T00:00:00.000Z' } }],
    ['DateTime in', { due: { in: ['2026-01-01T00:00:00Z'] } }, { due: { $in: ['2026-01-01T00:00:00.000Z'] } }],
    ['enum hash eq', { status: { eq: 'OPEN' } }, { status: { $eq: 'OPEN' } }],
    ['enum hash in', { status: { in: ['OPEN', 'DONE'] } }, { status: { $in: ['OPEN', 'DONE'] } }],
    ['enum exact gt', { level: { gt: 'DONE' } }, { level: { $gt: 'DONE' } }],
    ['list field eq matches an element', { tags: { eq: 'home' } }, { tags: { $eq: 'home' } }],
    ['list field anyofterms', { tags: { anyofterms: 'Home' } }, { _term_tags: { $in: ['home'] } }],
    ['a null operator other than eq is not given', { priority: { lt: null, gt: 2 } }, { priority: { $gt: 2 } }],
    ['null fields are not given', { priority: null, completed: true }, { completed: { $eq: true } }],
    ['an empty operator object adds nothing', { priority: {} }, {}],
  ])('%s: %j', (_name, filter, expected) => {
    expect(match('Task', filter)).toEqual(expected);
  });

  test.each<[string, string, Record<string, unknown>, string]>([
    ['User', 'two comparisons of one index (Dgraph: use between)', { age: { ge: 18, lt: 65 } }, 'IntFilter filter expects only one filter function, got: 2'],
    ['User', 'eq: null counts as an operator', { age: { eq: null, ge: 3 } }, 'IntFilter filter expects only one filter function, got: 2'],
    ['User', 'two operators of a hash index', { username: { eq: 'ann', in: ['bob'] } }, 'StringHashFilter filter expects only one filter function, got: 2'],
    ['Task', 'three operators of an Int64 index', { size: { eq: 1, le: 2, gt: 0 } }, 'Int64Filter filter expects only one filter function, got: 3'],
    ['Task', 'a DateTime range (Dgraph: use between)', { due: { ge: '2026-01-01', le: '2026-02-01' } }, 'DateTimeFilter filter expects only one filter function, got: 2'],
  ])('one operator per single-index filter, as Dgraph\'s validation has it: %s %s', (typeName, _name, filter, message) => {
    expect(() => compileFilter(model, typeName, filter)).toThrow(new QueryArgumentError(message));
  });

  test('an @id field is hash-indexed even without @search', () => {
    const withKey = schemaModel([{ name: 'Product', fields: [f('sku', 'String!', { isUniqueId: true }), f('title', 'String')] }]);
    expect(compileFilter(withKey, 'Product', { sku: { in: ['a'] } }).match).toEqual({ sku: { $in: ['a'] } });
    expect(() => compileFilter(withKey, 'Product', { sku: { gt: 'a' } })).toThrow('Product.sku does not support the filter operator "gt" (its @search indexes allow: eq, in)');
  });

  test('hash and trigram on one field combine eq/in with regexp', () => {
    expect(match('Group', { name: { eq: 'core', regexp: '/^co/' } })).toEqual({ name: { $eq: 'core', $regex: '^co' } });
  });
});

describe('ids', () => {
  test.each<[Record<string, unknown>, Record<string, unknown>]>([
    [{ id: ['a', 'b'] }, { _id: { $in: ['a', 'b'] } }],
    [{ id: [] }, { _id: { $in: [] } }],
    [{ id: ['a'], completed: true }, { _id: { $in: ['a'] }, completed: { $eq: true } }],
  ])('%j', (filter, expected) => {
    expect(match('Task', filter)).toEqual(expected);
  });
});

test('an ID field with another name filters _id too', () => {
  const custom = schemaModel([{ name: 'Note', fields: [f('noteId', 'ID!'), f('text', 'String')] }]);
  expect(compileFilter(custom, 'Note', { noteId: ['n1'] }).match).toEqual({ _id: { $in: ['n1'] } });
  expect(compileFilter(custom, 'Note', { id: ['n2'] }).match).toEqual({ _id: { $in: ['n2'] } });
});

test('a type without an ID field has no id filter', () => {
  const keyed = schemaModel([{ name: 'Product', fields: [f('sku', 'String!', { isUniqueId: true })] }]);
  expect(() => compileFilter(keyed, 'Product', { id: ['a'] })).toThrow('ProductFilter: type Product has no field "id"');
});

describe('federation: external fields', () => {
  const federated = schemaModel([
    {
      name: 'Product',
      extended: true,
      key: 'id',
      fields: [f('id', 'ID!', { external: true }), f('name', 'String', { external: true }), f('price', 'Int', { external: true }), f('stock', 'Int')],
    },
    { name: 'Review', fields: [f('id', 'ID!'), f('product', 'Product', { storedHere: true, provides: ['name'] })] },
  ]);

  test('has on an external field some @provides names, and on local fields', () => {
    expect(compileFilter(federated, 'Product', { has: ['name', 'stock'] }).match).toEqual({ name: { $exists: true, $ne: null }, stock: { $exists: true, $ne: null } });
  });

  test('has on an external field kept elsewhere is refused', () => {
    expect(() => compileFilter(federated, 'Product', { has: ['price'] })).toThrow('ProductFilter.has: field "price" cannot be tested with has (it is not stored by this service)');
  });

  test('the key ID of an extended type filters _id', () => {
    expect(compileFilter(federated, 'Product', { id: ['p1'] }).match).toEqual({ _id: { $in: ['p1'] } });
  });
});

describe('and / or / not', () => {
  test.each<[string, Record<string, unknown> | null | undefined, Record<string, unknown>]>([
    ['no filter', undefined, {}],
    ['null filter', null, {}],
    ['empty filter', {}, {}],
    ['keys of one object are ANDed', { completed: true, priority: { gt: 1 } }, { completed: { $eq: true }, priority: { $gt: 1 } }],
    ['and list', { and: [{ priority: { ge: 1 } }, { priority: { le: 3 } }] }, { priority: { $gte: 1, $lte: 3 } }],
    ['and with the same operator twice keeps both', { and: [{ priority: { ge: 1 } }, { priority: { ge: 2 } }] }, { $and: [{ priority: { $gte: 1 } }, { priority: { $gte: 2 } }] }],
    ['and as a single object', { completed: true, and: { priority: { eq: 1 } } }, { completed: { $eq: true }, priority: { $eq: 1 } }],
    ['or list', { or: [{ priority: { eq: 1 } }, { completed: true }] }, { $or: [{ priority: { $eq: 1 } }, { completed: { $eq: true } }] }],
    ['or of one object', { or: [{ priority: { eq: 1 } }] }, { priority: { $eq: 1 } }],
    ['or is infix: a, or: b means a OR b', { completed: true, or: { priority: { eq: 1 } } }, { $or: [{ completed: { $eq: true } }, { priority: { $eq: 1 } }] }],
    [
      'a, or: [b, c] means a OR b OR c',
      { completed: true, or: [{ priority: { eq: 1 } }, { status: { eq: 'OPEN' } }] },
      { $or: [{ completed: { $eq: true } }, { priority: { $eq: 1 } }, { status: { $eq: 'OPEN' } }] },
    ],
    [
      'a, and: b, or: c means (a AND b) OR c',
      { completed: true, and: { priority: { eq: 1 } }, or: { status: { eq: 'OPEN' } } },
      { $or: [{ completed: { $eq: true }, priority: { $eq: 1 } }, { status: { $eq: 'OPEN' } }] },
    ],
    [
      'nested or inside or flattens',
      { completed: true, or: { priority: { eq: 1 }, or: { priority: { eq: 2 } } } },
      { $or: [{ completed: { $eq: true } }, { priority: { $eq: 1 } }, { priority: { $eq: 2 } }] },
    ],
    ['empty or list is not given', { completed: true, or: [] }, { completed: { $eq: true } }],
    ['not', { not: { completed: true } }, { $nor: [{ completed: { $eq: true } }] }],
    ['not of everything matches nothing', { not: {} }, { _id: { $in: [] } }],
    ['not with a sibling', { priority: { gt: 1 }, not: { status: { eq: 'DONE' } } }, { priority: { $gt: 1 }, $nor: [{ status: { $eq: 'DONE' } }] }],
    [
      'two nots need $and',
      { and: [{ not: { completed: true } }, { not: { priority: { eq: 1 } } }] },
      { $and: [{ $nor: [{ completed: { $eq: true } }] }, { $nor: [{ priority: { $eq: 1 } }] }] },
    ],
  ])('%s', (_name, filter, expected) => {
    expect(match('Task', filter)).toEqual(expected);
  });
});

describe('has', () => {
  test.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    ['stored scalar', 'Task', { has: ['description'] }, { description: { $exists: true, $ne: null } }],
    ['single name (list coercion)', 'Task', { has: 'description' }, { description: { $exists: true, $ne: null } }],
    ['scalar list is non-empty', 'Task', { has: ['tags'] }, { 'tags.0': { $exists: true } }],
    ['stored single relation', 'Task', { has: ['user'] }, { user: { $exists: true, $ne: null } }],
    ['stored list relation', 'User', { has: ['friends'] }, { 'friends.0': { $exists: true } }],
    ['several fields are ANDed', 'Task', { has: ['description', 'tags'] }, { description: { $exists: true, $ne: null }, 'tags.0': { $exists: true } }],
    ['inside not', 'Task', { not: { has: ['due'] } }, { $nor: [{ due: { $exists: true, $ne: null } }] }],
  ])('%s', (_name, typeName, filter, expected) => {
    expect(match(typeName, filter)).toEqual(expected);
  });

  test('derived relation whose inverse holds one id: an equality $lookup (indexed) of one related document, then non-empty', () => {
    expect(compileFilter(model, 'User', { has: ['tasks'] })).toEqual<FilterPlan>({
      lookups: [
        {
          $lookup: {
            from: 'Task',
            localField: '_id',
            foreignField: 'user',
            pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }],
            as: '__has_tasks',
          },
        },
      ],
      match: { '__has_tasks.0': { $exists: true } },
    });
  });

  test('derived relation whose inverse is a list: the equality join matches an element of the stored array', () => {
    expect(compileFilter(model, 'User', { not: { has: 'groups' } })).toEqual<FilterPlan>({
      lookups: [
        {
          $lookup: {
            from: 'Group',
            localField: '_id',
            foreignField: 'members',
            pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }],
            as: '__has_groups',
          },
        },
      ],
      match: { $nor: [{ '__has_groups.0': { $exists: true } }] },
    });
  });

  test('derived relation to an interface: one lookup per implementing type, any of them', () => {
    const lookup = (from: string) => ({
      $lookup: {
        from,
        localField: '_id',
        foreignField: 'owner',
        pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }],
        as: `__has_items_${from}`,
      },
    });
    expect(compileFilter(model, 'User', { has: ['items'] })).toEqual<FilterPlan>({
      lookups: [lookup('Book'), lookup('Movie')],
      match: { $or: [{ '__has_items_Book.0': { $exists: true } }, { '__has_items_Movie.0': { $exists: true } }] },
    });
  });

  test('the same derived relation tested twice is looked up once', () => {
    const plan = compileFilter(model, 'User', { has: ['tasks'], or: { not: { has: ['tasks'] } } });
    expect(plan.lookups).toHaveLength(1);
    expect(plan.match).toEqual({ $or: [{ '__has_tasks.0': { $exists: true } }, { $nor: [{ '__has_tasks.0': { $exists: true } }] }] });
    expect(dropTemporaryFields(plan)).toEqual([{ $unset: ['__has_tasks'] }]);
  });
});

describe('interfaces', () => {
  test('a filter on an interface uses its fields', () => {
    expect(match('Item', { label: { ge: 'a' }, has: ['owner'] })).toEqual({ label: { $gte: 'a' }, owner: { $exists: true, $ne: null } });
    expect(match('Book', { label: { ge: 'a' }, pages: { gt: 100 } })).toEqual({ label: { $gte: 'a' }, pages: { $gt: 100 } });
  });
});

describe('errors name the type, field and operator', () => {
  test.each<[string, string, Record<string, unknown>, string]>([
    ['unknown field', 'Task', { nope: { eq: 1 } }, 'TaskFilter: type Task has no field "nope"'],
    ['operator the indexes do not allow', 'User', { username: { gt: 'a' } }, 'User.username does not support the filter operator "gt" (its @search indexes allow: eq, in)'],
    ['unknown operator', 'Task', { priority: { like: 1 } }, 'Task.priority does not support the filter operator "like"'],
    ['fulltext operator on a term-only field', 'Task', { tags: { alloftext: 'x' } }, 'Task.tags does not support the filter operator "alloftext"'],
    ['field without @search', 'Task', { notes: { eq: 'x' } }, 'Task.notes cannot be filtered: it has no @search index'],
    ['relation field', 'Task', { user: { eq: 'x' } }, 'Task.user cannot be filtered'],
    ['Boolean given an object', 'Task', { completed: { eq: true } }, 'Task.completed: the filter value must be true or false'],
    ['invalid regexp', 'Task', { description: { regexp: '/a(b/' } }, 'Task.description regexp: /a(b/ is not a regular expression RE2 can run: missing closing ): `a(b`'],
    ['regexp without slashes', 'Task', { description: { regexp: 'milk' } }, 'Task.description regexp: expected a regular expression written /pattern/ or /pattern/i, got "milk"'],
    ['regexp with an unknown flag', 'Task', { description: { regexp: '/milk/g' } }, 'Task.description regexp: flag "g" is not allowed (the only flag is i, for case-insensitive)'],
    ['invalid DateTime', 'Task', { due: { lt: 'yesterday' } }, 'Task.due lt: "yesterday" is not a valid DateTime'],
    ['between without max', 'Task', { priority: { between: { min: 1 } } }, 'Task.priority between: expected { min, max } with both given'],
    ['number field given a string', 'Task', { priority: { eq: '1' } }, 'Task.priority eq: expected a number, got "1"'],
    ['has of an unknown field', 'Task', { has: ['nope'] }, 'TaskFilter: type Task has no field "nope"'],
    ['has of the ID', 'Task', { has: ['id'] }, 'TaskFilter.has: field "id" cannot be tested with has (it is the ID)'],
    ['has of a lambda field', 'User', { has: ['nickname'] }, 'UserFilter.has: field "nickname" cannot be tested with has (it is not stored by this service)'],
    ['not given a list', 'Task', { not: [{ completed: true }] }, 'TaskFilter.not: expected one filter object'],
    ['and given a scalar', 'Task', { and: [1] }, 'TaskFilter.and: expected filter objects, got 1'],
    ['id given a string list item of the wrong type', 'Task', { id: [1] }, 'TaskFilter.id: expected a list of IDs'],
    ['unknown type', 'Nope', {}, 'unknown type Nope'],
  ])('%s', (_name, typeName, filter, message) => {
    const compile = () => compileFilter(model, typeName, filter);
    expect(compile).toThrow(QueryArgumentError);
    expect(compile).toThrow(message);
  });
});

test('stripTemporaryFields removes only the __ fields', () => {
  expect(stripTemporaryFields({ _id: 'u1', name: 'Ann', __has_tasks: [{ _id: 't1' }], __parent: 'x' })).toEqual({ _id: 'u1', name: 'Ann' });
});

describe('a non-ID field named id', () => {
  const { model: docs } = buildSchemaModel(`
type Doc {
  docId: ID!
  id: String @search(by: [hash])
}
`);

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['its operators compare the stored field, not the document id', { id: { eq: 'x' } }, { id: { $eq: 'x' } }],
    ['in on it too', { id: { in: ['x', 'y'] } }, { id: { $in: ['x', 'y'] } }],
    ['the ID field, under its own name, is the document id', { docId: ['a', 'b'] }, { _id: { $in: ['a', 'b'] } }],
  ])('%s', (_name, filter, expected) => {
    expect(compileFilter(docs!, 'Doc', filter)).toEqual({ lookups: [], match: expected });
  });
});
