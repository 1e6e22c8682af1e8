/**
 * `POST /admin/schema?dryRun=true` reports what an upload would change and activates nothing; a real
 * upload answers the same report; an upload that would make stored objects unreadable is refused (409
 * SCHEMA_BREAKS_STORED_DATA) unless it says `force=true`.
 */
import { activateSchema, gql, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { getHistory, postSchema, servedSchema } from './admin-http';

const TASKS = `type Task {
  id: ID!
  label: String! @search(by: [hash])
  done: Boolean
  status: Status
}
enum Status { OPEN CLOSED }
`;

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  await activateSchema(server.url, TASKS);
});
afterEach(async () => {
  await server.close();
});

async function addTask(input: Record<string, unknown>): Promise<string> {
  const data = await gqlData(server.url, 'mutation($t: [AddTaskInput!]!) { addTask(input: $t) { task { id } } }', { t: [input] });
  return data.addTask.task[0].id;
}

describe('a dry run', () => {
  it('reports types, fields, operations and indexes, and activates nothing', async () => {
    const next = `type Task {
  id: ID!
  label: String! @search(by: [hash])
  done: Int
  owner: User
}
type User {
  id: ID!
  name: String! @search(by: [exact])
}
`;
    const { status, body } = await postSchema(server.url, next, '?dryRun=true');
    expect(status).toBe(200);
    expect(body.data.message).toBe('dry run: nothing was activated');
    expect(body.data.wouldActivate).toBe(true);
    const report = body.data.report;
    expect(report.types).toEqual({ added: ['User'], removed: ['Status'] });
    expect(report.fields).toEqual({
      added: [{ type: 'Task', field: 'owner', typeText: 'User' }],
      removed: [{ type: 'Task', field: 'status', typeText: 'Status' }],
      retyped: [{ type: 'Task', field: 'done', from: 'Boolean', to: 'Int' }],
    });
    expect(report.operations.added).toEqual(expect.arrayContaining(['Query.getUser', 'Query.queryUser', 'Query.aggregateUser', 'Mutation.addUser', 'Mutation.updateUser', 'Mutation.deleteUser']));
    expect(report.operations.removed).toEqual([]);
    expect(report.indexes).toEqual({ created: ['Task.ag_rel_owner', 'User.ag_search_name'], dropped: [] });
    expect(report.breaksClients).toBe(true);
    expect(report.breakingChanges).toEqual(expect.arrayContaining([
      { type: 'FIELD_CHANGED_KIND', description: 'Task.done changed type from Boolean to Int.' },
      { type: 'FIELD_REMOVED', description: 'Task.status was removed.' },
      { type: 'TYPE_REMOVED', description: 'Status was removed.' },
    ]));
    expect(report.storedData).toEqual([]);
    expect(report.needsForce).toBe(false);
    expect(await servedSchema(server.url)).toBe(TASKS);
  });

  it('answers a schema an upload would reject with the same 400 BAD_SCHEMA errors', async () => {
    const { status, body } = await postSchema(server.url, 'type Task { id: ID! label: Strin }', '?dryRun=true');
    expect(status).toBe(400);
    expect(body.errors).toEqual([expect.objectContaining({ locations: [{ line: 1, column: 28 }], extensions: { code: 'BAD_SCHEMA' } })]);
    expect(body.errors[0].message).toMatch(/Strin/);
  });

  it('refuses a dryRun or force value that is not true or false', async () => {
    const { status, body } = await postSchema(server.url, TASKS, '?dryRun=yes');
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ message: 'the query parameter dryRun must be true or false, not "yes"', extensions: { code: 'BAD_REQUEST' } }]);
  });
});

describe('an upload that would make stored data unreadable', () => {
  const RENAMED = TASKS.replace('label: String!', 'title: String!');

  it('is refused with each stored problem, an example object and the report, and the old schema keeps serving', async () => {
    const id = await addTask({ label: 'write the report', status: 'OPEN' });
    const { status, body } = await postSchema(server.url, RENAMED);
    expect(status).toBe(409);
    expect(body.errors).toEqual([
      {
        message: `Task.label (String!) is removed, but stored Task objects hold values of it, which no field would read (one of them: "${id}"); upload with ?force=true to activate the schema anyway`,
        extensions: { code: 'SCHEMA_BREAKS_STORED_DATA' },
      },
      {
        message: `Task.title (String!) is non-null, but stored Task objects have no value for it, so reading them would fail (one of them: "${id}"); upload with ?force=true to activate the schema anyway`,
        locations: [{ line: 3, column: 3 }],
        extensions: { code: 'SCHEMA_BREAKS_STORED_DATA' },
      },
    ]);
    expect(body.extensions.report.needsForce).toBe(true);
    expect(body.extensions.report.storedData.map((problem: { kind: string; field: string }) => [problem.kind, problem.field])).toEqual([
      ['VALUES_HIDDEN', 'label'],
      ['VALUES_MISSING', 'title'],
    ]);
    expect(await servedSchema(server.url)).toBe(TASKS);
    expect((await gql(server.url, '{ queryTask { label } }')).body).toEqual({ data: { queryTask: [{ label: 'write the report' }] } });
  });

  it('is not refused when the rename keeps the stored field with @dgraph(pred:), and the data stays readable', async () => {
    const id = await addTask({ label: 'write the report', status: 'OPEN' });
    const kept = TASKS.replace('label: String!', 'title: String! @dgraph(pred: "label")');
    const { status, body } = await postSchema(server.url, kept);
    expect(status).toBe(200);
    expect(body.data.report.storedData).toEqual([]);
    expect(body.data.report.needsForce).toBe(false);
    expect((await gql(server.url, '{ queryTask { id title } }')).body).toEqual({ data: { queryTask: [{ id, title: 'write the report' }] } });
  });

  it('is dry-run as wouldActivate: false, and with force as wouldActivate: true', async () => {
    await addTask({ label: 'a' });
    const plain = await postSchema(server.url, RENAMED, '?dryRun=true');
    expect(plain.status).toBe(200);
    expect(plain.body.data.wouldActivate).toBe(false);
    expect(plain.body.data.report.needsForce).toBe(true);
    const forced = await postSchema(server.url, RENAMED, '?dryRun=true&force=true');
    expect(forced.body.data.wouldActivate).toBe(true);
    expect(await servedSchema(server.url)).toBe(TASKS);
  });

  it('is activated with force=true, answering the report it overrode', async () => {
    await addTask({ label: 'a' });
    const { status, body } = await postSchema(server.url, RENAMED, '?force=true');
    expect(status).toBe(200);
    expect(body.data.message).toBe('schema activated');
    expect(body.data.report.needsForce).toBe(true);
    expect(await servedSchema(server.url)).toBe(RENAMED);
  });

  it('is accepted without force while no stored object has the values concerned', async () => {
    const { status, body } = await postSchema(server.url, RENAMED);
    expect(status).toBe(200);
    expect(body.data.report.storedData).toEqual([]);
    expect(body.data.report.fields).toEqual({
      added: [{ type: 'Task', field: 'title', typeText: 'String!' }],
      removed: [{ type: 'Task', field: 'label', typeText: 'String!' }],
      retyped: [],
    });
  });

  it.each([
    ['a field retyped with stored values', { label: 'a', done: true }, TASKS.replace('done: Boolean', 'done: Int'), 'VALUES_RETYPED', 'Task.done (Int) was Boolean, and stored Task objects hold values of the old type'],
    ['an enum value removed that stored objects hold', { label: 'a', status: 'CLOSED' }, TASKS.replace('OPEN CLOSED', 'OPEN'), 'VALUES_NOT_IN_ENUM', 'Task.status (Status) answers only the values of enum Status, and stored Task objects hold other values'],
    ['a field made non-null that stored objects lack', { label: 'a' }, TASKS.replace('done: Boolean', 'done: Boolean!'), 'VALUES_MISSING', 'Task.done (Boolean!) is non-null, but stored Task objects have no value for it, so reading them would fail'],
  ])('refuses %s', async (_case, input, next, kind, message) => {
    const id = await addTask(input);
    const { status, body } = await postSchema(server.url, next);
    expect(status).toBe(409);
    expect(body.errors.map((error: { message: string; extensions: { code: string } }) => [error.extensions.code, error.message])).toEqual([
      ['SCHEMA_BREAKS_STORED_DATA', `${message} (one of them: "${id}"); upload with ?force=true to activate the schema anyway`],
    ]);
    expect(body.extensions.report.storedData).toEqual([expect.objectContaining({ kind, type: 'Task', exampleId: id, blocking: true })]);
  });

  it.each([
    ['a widening retype (Int to Float)', TASKS.replace('done: Boolean', 'done: Boolean\n  size: Int'), TASKS.replace('done: Boolean', 'done: Boolean\n  size: Float'), { label: 'a', size: 3 }],
    ['an enum value added', TASKS, TASKS.replace('OPEN CLOSED', 'OPEN CLOSED ARCHIVED'), { label: 'a', status: 'CLOSED' }],
    ['an enum value removed that no stored object holds', TASKS, TASKS.replace('OPEN CLOSED', 'OPEN'), { label: 'a', status: 'OPEN' }],
  ])('accepts %s', async (_case, before, next, input) => {
    await activateSchema(server.url, before);
    await addTask(input);
    const { status, body } = await postSchema(server.url, next);
    expect(status).toBe(200);
    expect(body.data.report.needsForce).toBe(false);
  });

  it('reports, without refusing, a removed nullable field with values and a removed type with objects', async () => {
    await activateSchema(server.url, `${TASKS}type Note { id: ID! text: String }\n`);
    const taskId = await addTask({ label: 'a', done: true });
    const notes = await gqlData(server.url, 'mutation { addNote(input: [{ text: "n" }]) { note { id } } }');
    const { status, body } = await postSchema(server.url, TASKS.replace('  done: Boolean\n', ''));
    expect(status).toBe(200);
    expect(body.data.report.storedData).toEqual([
      expect.objectContaining({ kind: 'VALUES_HIDDEN', type: 'Task', field: 'done', exampleId: taskId, blocking: false }),
      expect.objectContaining({ kind: 'OBJECTS_KEPT', type: 'Note', exampleId: notes.addNote.note[0].id, blocking: false }),
    ]);
  });
});

describe('a type an earlier upload removed, brought back', () => {
  // The README's quick start schema; then the same without Task; then Task back with a field its kept objects lack.
  const USER = 'type User {\n  username: String! @id @search(by: [hash])\n  name: String\n';
  const QUICK_START = `type Task {
  id: ID!
  title: String! @search(by: [fulltext])
  completed: Boolean! @search
  user: User!
}

${USER}  tasks: [Task] @hasInverse(field: user)
}
`;
  const WITHOUT_TASK = `${USER}}\n`;
  const TASK_BACK = `type Task {
  id: ID!
  title: String! @search(by: [fulltext])
  completed: Boolean! @search
  owner: String!
}

${USER}}
`;

  it('checks the objects kept in its collection: refused, dry-run the same, then forced and recorded as forced', async () => {
    await activateSchema(server.url, QUICK_START);
    const added = await gqlData(server.url, 'mutation { addUser(input: [{ username: "alice@example.com", name: "Alice", tasks: [{ title: "Write the report", completed: false }] }]) { user { tasks { id } } } }');
    const id: string = added.addUser.user[0].tasks[0].id;
    const removed = await postSchema(server.url, WITHOUT_TASK);
    expect(removed.status).toBe(200);
    expect(removed.body.data.report.storedData).toEqual([expect.objectContaining({ kind: 'OBJECTS_KEPT', type: 'Task', exampleId: id, blocking: false })]);

    const message = `Task.owner (String!) is non-null, but stored Task objects have no value for it, so reading them would fail (one of them: "${id}")`;
    const problem = { kind: 'VALUES_MISSING', type: 'Task', field: 'owner', exampleId: id, blocking: true, message, locations: [{ line: 5, column: 3 }] };
    const refused = await postSchema(server.url, TASK_BACK);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { message: `${message}; upload with ?force=true to activate the schema anyway`, locations: [{ line: 5, column: 3 }], extensions: { code: 'SCHEMA_BREAKS_STORED_DATA' } },
    ]);
    expect(refused.body.extensions.report.types).toEqual({ added: ['Task'], removed: [] });
    expect(refused.body.extensions.report.storedData).toEqual([problem]);
    expect(refused.body.extensions.report.needsForce).toBe(true);
    expect(await servedSchema(server.url)).toBe(WITHOUT_TASK);

    const dry = await postSchema(server.url, TASK_BACK, '?dryRun=true');
    expect(dry.status).toBe(200);
    expect(dry.body.data.wouldActivate).toBe(false);
    expect(dry.body.data.report).toEqual(refused.body.extensions.report);

    const forced = await postSchema(server.url, TASK_BACK, '?force=true');
    expect(forced.status).toBe(200);
    expect(forced.body.data.report.storedData).toEqual([problem]);
    expect(await servedSchema(server.url)).toBe(TASK_BACK);
    expect((await getHistory(server.url)).body.data.revisions[0]).toEqual(expect.objectContaining({ revision: 4, forced: true }));
    expect((await gql(server.url, '{ queryTask { id title } }')).body).toEqual({ data: { queryTask: [{ id, title: 'Write the report' }] } });
  });

  it('is accepted without force when its kept objects have every non-null field', async () => {
    await activateSchema(server.url, QUICK_START);
    await gqlData(server.url, 'mutation { addUser(input: [{ username: "alice@example.com", tasks: [{ title: "Write the report", completed: false }] }]) { numUids } }');
    await activateSchema(server.url, WITHOUT_TASK);
    const back = await postSchema(server.url, TASK_BACK.replace('owner: String!', 'owner: String'));
    expect(back.status).toBe(200);
    expect(back.body.data.report.storedData).toEqual([]);
    expect(back.body.data.report.needsForce).toBe(false);
  });
});
