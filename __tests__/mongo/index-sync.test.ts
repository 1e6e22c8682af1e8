import {
  indexSpecFrom,
  planIndexSync,
  validateIndexSpecs,
  type ExistingIndex,
} from '../../src/store/mongo/index-sync.js';
import type { IndexSpec } from '../../src/store/port.js';

const idIndex: ExistingIndex = { name: '_id_', keys: { _id: 1 }, unique: false, sparse: false };
const username: IndexSpec = { name: 'ag_User_username', keys: { username: 1 }, unique: true, sparse: true };
const tasks: IndexSpec = { name: 'ag_User_tasks', keys: { tasks: 1 } };

function existing(spec: IndexSpec): ExistingIndex {
  return { name: spec.name, keys: spec.keys, unique: spec.unique === true, sparse: spec.sparse === true };
}

describe('planIndexSync', () => {
  it('creates every wanted index on a new collection', () => {
    expect(planIndexSync([], [username, tasks], 'ag_')).toEqual({ drop: [], create: [username, tasks] });
  });

  it('does nothing when the indexes already match', () => {
    expect(planIndexSync([idIndex, existing(username), existing(tasks)], [username, tasks], 'ag_')).toEqual({
      drop: [],
      create: [],
    });
  });

  it('drops an index of ours that the schema no longer wants, and leaves foreign ones alone', () => {
    const foreign: ExistingIndex = { name: 'ops_by_date', keys: { createdAt: -1 }, unique: false, sparse: false };
    expect(planIndexSync([idIndex, foreign, existing(username), existing(tasks)], [username], 'ag_')).toEqual({
      drop: ['ag_User_tasks'],
      create: [],
    });
  });

  it.each<[string, IndexSpec]>([
    ['unique is added', { ...tasks, unique: true }],
    ['sparse is removed', { ...username, sparse: undefined }],
    ['the direction changes', { ...tasks, keys: { tasks: -1 } }],
    ['the key order changes', { name: 'ag_T_ab', keys: { b: 1, a: 1 } }],
  ])('recreates an index under the same name when %s', (_change, wanted) => {
    const before: ExistingIndex[] = [
      existing(username),
      existing(tasks),
      { name: 'ag_T_ab', keys: { a: 1, b: 1 }, unique: false, sparse: false },
    ];
    expect(planIndexSync(before, [wanted], 'ag_')).toEqual({
      drop: expect.arrayContaining([wanted.name]),
      create: [wanted],
    });
  });

  it('drops an index of ours whose keys the port cannot express', () => {
    const text: ExistingIndex = { name: 'ag_Task_text', keys: { _fts: 'text', _ftsx: 1 }, unique: false, sparse: false };
    expect(planIndexSync([text], [], 'ag_')).toEqual({ drop: ['ag_Task_text'], create: [] });
  });
});

describe('validateIndexSpecs', () => {
  it('accepts well-formed specs', () => {
    expect(() => validateIndexSpecs('User', [username, tasks], 'ag_')).not.toThrow();
  });

  it.each<[string, IndexSpec[], string, string]>([
    ['an empty prefix', [], '', 'syncIndexes(User): the prefix must not be empty'],
    ['a name without the prefix', [{ name: 'username_1', keys: { username: 1 } }], 'ag_', 'index "username_1" does not start with the prefix "ag_"'],
    ['a name listed twice', [tasks, tasks], 'ag_', 'index "ag_User_tasks" is listed twice'],
    ['no keys', [{ name: 'ag_User_none', keys: {} }], 'ag_', 'index "ag_User_none" has no keys'],
    [
      'a key direction other than 1 or -1',
      [{ name: 'ag_User_bad', keys: { name: 2 as 1 } }],
      'ag_',
      'index "ag_User_bad" key "name" must be 1 or -1, got 2',
    ],
  ])('rejects %s', (_case, specs, prefix, message) => {
    expect(() => validateIndexSpecs('User', specs, prefix)).toThrow(message);
  });
});

describe('indexSpecFrom', () => {
  it('keeps only the flags that are set', () => {
    expect(indexSpecFrom(existing(username))).toEqual(username);
    expect(indexSpecFrom(existing(tasks))).toEqual({ name: 'ag_User_tasks', keys: { tasks: 1 } });
  });

  it('has no port view of text or hashed indexes', () => {
    expect(indexSpecFrom({ name: 't', keys: { _fts: 'text', _ftsx: 1 }, unique: false, sparse: false })).toBeUndefined();
    expect(indexSpecFrom({ name: 'h', keys: { tenant: 'hashed' }, unique: false, sparse: false })).toBeUndefined();
  });
});
