import { isLogRecord } from '../../src/store/embedded/log-records.js';

/** What replay accepts as a record: a line that is anything else is a torn append (last) or damage (not last). */
describe('isLogRecord', () => {
  test.each([
    ['a put', { seq: 1, ops: [{ op: 'put', collection: 'Task', documents: [{ _id: 'a' }] }] }, true],
    ['a delete', { seq: 2, ops: [{ op: 'delete', collection: 'Task', ids: ['a'] }] }, true],
    ['an index creation', { seq: 3, ops: [{ op: 'createIndex', collection: 'Task', spec: { name: 'ag_title', keys: { title: 1 } } }] }, true],
    ['an index drop', { seq: 4, ops: [{ op: 'dropIndex', collection: 'Task', name: 'ag_title' }] }, true],
    ['a collection drop', { seq: 5, ops: [{ op: 'dropCollection', collection: 'Task' }] }, true],
    ['several operations', { seq: 6, ops: [{ op: 'dropCollection', collection: 'A' }, { op: 'delete', collection: 'B', ids: [] }] }, true],
    ['no operations', { seq: 7, ops: [] }, true],
    ['null', null, false],
    ['a number', 7, false],
    ['a string', '{"seq":1,"ops":[]}', false],
    ['no seq', { ops: [] }, false],
    ['a seq that is a string', { seq: '1', ops: [] }, false],
    ['ops that are not an array', { seq: 1, ops: {} }, false],
    ['an operation that is null', { seq: 1, ops: [null] }, false],
    ['an operation that is a string', { seq: 1, ops: ['put'] }, false],
    ['an operation without a collection', { seq: 1, ops: [{ op: 'dropCollection' }] }, false],
    ['an operation whose collection is a number', { seq: 1, ops: [{ op: 'dropCollection', collection: 1 }] }, false],
    ['an unknown operation', { seq: 1, ops: [{ op: 'truncate', collection: 'Task' }] }, false],
    ['a put without documents', { seq: 1, ops: [{ op: 'put', collection: 'Task' }] }, false],
    ['a put whose documents are an object', { seq: 1, ops: [{ op: 'put', collection: 'Task', documents: { _id: 'a' } }] }, false],
    ['a delete without ids', { seq: 1, ops: [{ op: 'delete', collection: 'Task' }] }, false],
    ['an index creation without a spec', { seq: 1, ops: [{ op: 'createIndex', collection: 'Task' }] }, false],
    ['an index creation whose spec is null', { seq: 1, ops: [{ op: 'createIndex', collection: 'Task', spec: null }] }, false],
    ['an index creation whose spec is a string', { seq: 1, ops: [{ op: 'createIndex', collection: 'Task', spec: 'ag_title' }] }, false],
    ['an index drop without a name', { seq: 1, ops: [{ op: 'dropIndex', collection: 'Task' }] }, false],
    ['an index drop whose name is a number', { seq: 1, ops: [{ op: 'dropIndex', collection: 'Task', name: 3 }] }, false],
    ['a valid operation after an invalid one', { seq: 1, ops: [{ op: 'truncate', collection: 'A' }, { op: 'dropCollection', collection: 'A' }] }, false],
  ])('%s', (_case, value, expected) => {
    expect(isLogRecord(value)).toBe(expected);
  });
});
