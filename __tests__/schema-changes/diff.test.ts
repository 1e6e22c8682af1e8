/** The pure half of a schema change report, as tables: two schemas in, the diff or the stored-data questions out. */
import { buildSchema } from 'graphql';
import { diffApis } from '../../src/schema-changes/api-diff';
import { withRevisionRetry } from '../../src/schema-changes/history';
import { diffIndexes } from '../../src/schema-changes/index-diff';
import { diffModels, type ModelDiff } from '../../src/schema-changes/model-diff';
import { storedDataRisks, valuesReadableAs } from '../../src/schema-changes/stored-data-risks';
import { DuplicateKeyError, SYSTEM_COLLECTIONS } from '../../src/store/port';
import { fieldOf, validModel } from '../sdl/helpers';

const TASK = 'type Task {\n  id: ID!\n  label: String!\n  done: Boolean\n}\n';
const none: ModelDiff = { typesAdded: [], typesRemoved: [], fieldsAdded: [], fieldsRemoved: [], fieldsRetyped: [] };

describe('diffModels', () => {
  it.each<[string, string, string, Partial<ModelDiff>]>([
    ['nothing changed', TASK, TASK, {}],
    ['a type added', TASK, `${TASK}type Note { id: ID! }`, { typesAdded: ['Note'] }],
    ['a type and an enum removed', `${TASK}type Note { id: ID! }\nenum Color { RED }`, TASK, { typesRemoved: ['Note', 'Color'] }],
    ['a field added', TASK, TASK.replace('done: Boolean', 'done: Boolean\n  due: DateTime'), { fieldsAdded: [{ type: 'Task', field: 'due', typeText: 'DateTime' }] }],
    ['a field removed', TASK, TASK.replace('  done: Boolean\n', ''), { fieldsRemoved: [{ type: 'Task', field: 'done', typeText: 'Boolean' }] }],
    [
      'a field renamed',
      TASK,
      TASK.replace('label:', 'title:'),
      { fieldsAdded: [{ type: 'Task', field: 'title', typeText: 'String!' }], fieldsRemoved: [{ type: 'Task', field: 'label', typeText: 'String!' }] },
    ],
    ['a field retyped', TASK, TASK.replace('done: Boolean', 'done: Int'), { fieldsRetyped: [{ type: 'Task', field: 'done', from: 'Boolean', to: 'Int' }] }],
    ['a field made non-null', TASK, TASK.replace('done: Boolean', 'done: Boolean!'), { fieldsRetyped: [{ type: 'Task', field: 'done', from: 'Boolean', to: 'Boolean!' }] }],
    ['a field made a list', TASK, TASK.replace('label: String!', 'label: [String!]'), { fieldsRetyped: [{ type: 'Task', field: 'label', from: 'String!', to: '[String!]' }] }],
    [
      'a custom query added',
      `${TASK}type Query { a: String @lambda }`,
      `${TASK}type Query { a: String @lambda\n b: Int @lambda }`,
      { fieldsAdded: [{ type: 'Query', field: 'b', typeText: 'Int' }] },
    ],
  ])('%s', (_case, before, after, expected) => {
    expect(diffModels(validModel(before), validModel(after))).toEqual({ ...none, ...expected });
  });

  it('with no previous schema, every type and enum is added and no field is listed', () => {
    expect(diffModels(undefined, validModel(`${TASK}enum Color { RED }`))).toEqual({ ...none, typesAdded: ['Task', 'Color'] });
  });
});

describe('storedDataRisks', () => {
  const risks = (before: string, after: string) =>
    storedDataRisks(validModel(before), validModel(after)).map(({ kind, type, field, collection, filter, blocking }) => ({ kind, type, field, collection, filter, blocking }));
  const has = { $exists: true, $ne: null };

  it.each([
    ['nothing changed', TASK, TASK, []],
    ['a nullable field added', TASK, TASK.replace('done: Boolean', 'done: Boolean\n  note: String'), []],
    ['a non-null field removed: its values hidden, blocking', TASK, TASK.replace('  label: String!\n', ''), [
      { kind: 'VALUES_HIDDEN', type: 'Task', field: 'label', collection: 'Task', filter: { label: has }, blocking: true },
    ]],
    ['a nullable field removed: its values hidden, reported only', TASK, TASK.replace('  done: Boolean\n', ''), [
      { kind: 'VALUES_HIDDEN', type: 'Task', field: 'done', collection: 'Task', filter: { done: has }, blocking: false },
    ]],
    ['a non-null field renamed: old values hidden, new ones missing', TASK, TASK.replace('label:', 'title:'), [
      { kind: 'VALUES_HIDDEN', type: 'Task', field: 'label', collection: 'Task', filter: { label: has }, blocking: true },
      { kind: 'VALUES_MISSING', type: 'Task', field: 'title', collection: 'Task', filter: { title: null }, blocking: true },
    ]],
    ['a field made non-null', TASK, TASK.replace('done: Boolean', 'done: Boolean!'), [
      { kind: 'VALUES_MISSING', type: 'Task', field: 'done', collection: 'Task', filter: { done: null }, blocking: true },
    ]],
    ['a field made nullable', TASK, TASK.replace('label: String!', 'label: String'), []],
    ['a field retyped', TASK, TASK.replace('done: Boolean', 'done: String'), [
      { kind: 'VALUES_RETYPED', type: 'Task', field: 'done', collection: 'Task', filter: { done: has }, blocking: true },
    ]],
    ['a field widened from Int to Float', TASK.replace('done: Boolean', 'n: Int'), TASK.replace('done: Boolean', 'n: Float'), []],
    ['an enum value removed', `${TASK.replace('done: Boolean', 's: S')}enum S { A B }`, `${TASK.replace('done: Boolean', 's: S')}enum S { A }`, [
      { kind: 'VALUES_NOT_IN_ENUM', type: 'Task', field: 's', collection: 'Task', filter: { s: { $exists: true, $nin: [null, 'A'] } }, blocking: true },
    ]],
    ['an enum list whose enum lost a value', `${TASK.replace('done: Boolean', 's: [S]')}enum S { A B }`, `${TASK.replace('done: Boolean', 's: [S]')}enum S { A }`, [
      { kind: 'VALUES_NOT_IN_ENUM', type: 'Task', field: 's', collection: 'Task', filter: { s: { $elemMatch: { $nin: ['A'] } } }, blocking: true },
    ]],
    ['an enum value added', `${TASK.replace('done: Boolean', 's: S')}enum S { A }`, `${TASK.replace('done: Boolean', 's: S')}enum S { A B }`, []],
    ['a String field made an enum', TASK.replace('done: Boolean', 's: String'), `${TASK.replace('done: Boolean', 's: S')}enum S { A }`, [
      { kind: 'VALUES_NOT_IN_ENUM', type: 'Task', field: 's', collection: 'Task', filter: { s: { $exists: true, $nin: [null, 'A'] } }, blocking: true },
    ]],
    ['a type removed: its objects kept, reported only', `${TASK}type Note { id: ID! }`, TASK, [
      { kind: 'OBJECTS_KEPT', type: 'Note', field: undefined, collection: 'Note', filter: {}, blocking: false },
    ]],
    ['a type added: its collection may hold objects kept when an earlier upload removed it', TASK, `${TASK}type Note { id: ID!\n text: String!\n tag: String\n s: S }\nenum S { A B }`, [
      { kind: 'VALUES_MISSING', type: 'Note', field: 'text', collection: 'Note', filter: { text: null }, blocking: true },
      { kind: 'VALUES_NOT_IN_ENUM', type: 'Note', field: 's', collection: 'Note', filter: { s: { $exists: true, $nin: [null, 'A', 'B'] } }, blocking: true },
    ]],
    ['a type added under a stored collection name, with stored field names', TASK, `${TASK}type Note @dgraph(type: "Memo") { id: ID!\n text: String! @dgraph(pred: "body")\n tags: [S!]! }\nenum S { A }`, [
      { kind: 'VALUES_MISSING', type: 'Note', field: 'text', collection: 'Memo', filter: { body: null }, blocking: true },
      { kind: 'VALUES_MISSING', type: 'Note', field: 'tags', collection: 'Memo', filter: { tags: null }, blocking: true },
      { kind: 'VALUES_NOT_IN_ENUM', type: 'Note', field: 'tags', collection: 'Memo', filter: { tags: { $elemMatch: { $nin: ['A'] } } }, blocking: true },
    ]],
    ['an enum field added to a served type: values an earlier upload hid may be outside it', `${TASK}enum S { A }`, `${TASK.replace('done: Boolean', 'done: Boolean\n  s: S')}enum S { A }`, [
      { kind: 'VALUES_NOT_IN_ENUM', type: 'Task', field: 's', collection: 'Task', filter: { s: { $exists: true, $nin: [null, 'A'] } }, blocking: true },
    ]],
    ['a type renamed onto its collection (@dgraph(type:)): compared field by field, its objects not kept', TASK,
      'type Todo @dgraph(type: "Task") {\n  id: ID!\n  label: String!\n  done: Boolean!\n}\n', [
      { kind: 'VALUES_MISSING', type: 'Todo', field: 'done', collection: 'Task', filter: { done: null }, blocking: true },
    ]],
    ['a type renamed onto its collection unchanged: nothing to ask', TASK, 'type Todo @dgraph(type: "Task") {\n  id: ID!\n  label: String!\n  done: Boolean\n}\n', []],
    ['a type removed while an added type takes another collection: kept, and the added one checked', TASK, 'type Todo @dgraph(type: "Work") {\n  id: ID!\n  label: String!\n}\n', [
      { kind: 'OBJECTS_KEPT', type: 'Task', field: undefined, collection: 'Task', filter: {}, blocking: false },
      { kind: 'VALUES_MISSING', type: 'Todo', field: 'label', collection: 'Work', filter: { label: null }, blocking: true },
    ]],
    ['a @lambda field removed: nothing stored', `${TASK.replace('done: Boolean', 'x: String! @lambda')}`, TASK.replace('  done: Boolean\n', ''), []],
    ['a non-null relation list added: an empty list reads fine', `${TASK}type Tag { id: ID! }`, `${TASK.replace('done: Boolean', 'done: Boolean\n  tags: [Tag!]!')}type Tag { id: ID! }`, []],
    ['a non-null single relation added', `${TASK}type Tag { id: ID! }`, `${TASK.replace('done: Boolean', 'done: Boolean\n  tag: Tag!')}type Tag { id: ID! }`, [
      { kind: 'VALUES_MISSING', type: 'Task', field: 'tag', collection: 'Task', filter: { tag: null }, blocking: true },
    ]],
  ])('%s', (_case, before, after, expected) => {
    expect(risks(before, after)).toEqual(expected);
  });

  it('points a risk at the field of the new schema', () => {
    const [risk] = storedDataRisks(validModel(TASK), validModel(TASK.replace('done: Boolean', 'done: Boolean!')));
    expect(risk!.locations).toEqual([{ line: 4, column: 3 }]);
  });
});

describe('valuesReadableAs', () => {
  const field = (typeText: string) => fieldOf(validModel(`type T { k: String\n f: ${typeText} }\nenum E { A }\nenum F { A }\ntype U { id: ID! }\ntype V { id: ID! }`), 'T', 'f');
  it.each([
    ['String', 'String!', true],
    ['Int', 'Int64', true],
    ['Int', 'Float', true],
    ['Float', 'Int', false],
    ['ID', 'String', true],
    ['String', 'ID', true],
    ['E', 'String', true],
    ['String', 'E', true],
    ['E', 'F', true],
    ['Boolean', 'String', false],
    ['DateTime', 'String', false],
    ['String', '[String]', false],
    ['[Int]', 'Int', false],
    ['U', 'U!', true],
    ['U', 'V', false],
    ['U', 'String', false],
  ])('%s → %s: %s', (from, to, readable) => {
    expect(valuesReadableAs(field(from), field(to))).toBe(readable);
  });
});

describe('diffIndexes', () => {
  it.each([
    ['an index added', TASK, TASK.replace('label: String!', 'label: String! @search(by: [hash])'), { created: ['Task.ag_search_label'], dropped: [] }],
    ['an index removed', TASK.replace('label: String!', 'label: String! @search(by: [term])'), TASK, { created: [], dropped: ['Task.ag_term_label'] }],
    ['a removed type loses its indexes', `${TASK}type Note { id: ID!\n code: String! @id }`, TASK, { created: [], dropped: ['Note.ag_unique_code'] }],
    ['no index change', TASK, TASK.replace('done: Boolean', 'done: Int'), { created: [], dropped: [] }],
  ])('%s', (_case, before, after, expected) => {
    expect(diffIndexes(validModel(before), validModel(after))).toEqual(expected);
  });
});

describe('diffApis', () => {
  const BEFORE = buildSchema('type Query { a(x: Int): String\n b: Int }\ntype Mutation { m: Int }\nenum E { X }\ntype T { e: E }');

  it.each([
    ['an operation added', 'type Query { a(x: Int): String\n b: Int\n c: Int }\ntype Mutation { m: Int }\nenum E { X }\ntype T { e: E }', { operationsAdded: ['Query.c'], operationsRemoved: [], breaking: [], dangerous: [] }],
    ['an operation removed', 'type Query { a(x: Int): String }\ntype Mutation { m: Int }\nenum E { X }\ntype T { e: E }', {
      operationsAdded: [], operationsRemoved: ['Query.b'], breaking: [{ type: 'FIELD_REMOVED', description: 'Query.b was removed.' }], dangerous: [],
    }],
    ['an argument retyped', 'type Query { a(x: String): String\n b: Int }\ntype Mutation { m: Int }\nenum E { X }\ntype T { e: E }', {
      operationsAdded: [], operationsRemoved: [], breaking: [{ type: 'ARG_CHANGED_KIND', description: 'Query.a arg x has changed type from Int to String.' }], dangerous: [],
    }],
    ['an enum value added', 'type Query { a(x: Int): String\n b: Int }\ntype Mutation { m: Int }\nenum E { X Y }\ntype T { e: E }', {
      operationsAdded: [], operationsRemoved: [], breaking: [], dangerous: [{ type: 'VALUE_ADDED_TO_ENUM', description: 'Y was added to enum type E.' }],
    }],
  ])('%s', async (_case, after, expected) => {
    expect(await diffApis(BEFORE, buildSchema(after))).toEqual(expected);
  });

  it('leaves the federation plumbing out of the operations', async () => {
    const subgraph = buildSchema('scalar _Any\ntype _Service { sdl: String }\ntype Query { _service: _Service!\n _entities(representations: [_Any!]!): [String]!\n t: Int }');
    expect((await diffApis(undefined, subgraph)).operationsAdded).toEqual(['Query.t']);
  });

  it('with no previous API, every operation is added and nothing breaks', async () => {
    expect(await diffApis(undefined, BEFORE)).toEqual({ operationsAdded: ['Query.a', 'Query.b', 'Mutation.m'], operationsRemoved: [], breaking: [], dangerous: [] });
  });
});

describe('withRevisionRetry', () => {
  it('runs again when another writer took the revision number, up to 3 times', async () => {
    let calls = 0;
    const lost = () => new DuplicateKeyError(SYSTEM_COLLECTIONS.schemaHistory, '_id', '000000000002');
    await expect(withRevisionRetry(async () => (++calls < 3 ? Promise.reject(lost()) : 'stored'))).resolves.toBe('stored');
    expect(calls).toBe(3);
    calls = 0;
    await expect(withRevisionRetry(async () => { calls += 1; throw lost(); })).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(calls).toBe(3);
  });

  it('passes any other error on at once', async () => {
    let calls = 0;
    const other = new DuplicateKeyError('Task', 'code', 'x');
    await expect(withRevisionRetry(async () => { calls += 1; throw other; })).rejects.toBe(other);
    expect(calls).toBe(1);
  });
});
