import { buildSchemaModel } from '../../src/sdl/build';
import { foldStoredAggregates, readRelationAggregates, relationAggregatePipeline, storedAggregateQueries } from '../../src/query/relations';
import type { StoredDocument } from '../../src/store/port';
import { useService } from './harness';

/**
 * `<field>Aggregate` of a list relation stored on the parents' side is read as one projected `find` per
 * target collection and folded per parent (storedAggregateQueries + foldStoredAggregates). It must give
 * every parent exactly what the grouping pipeline (relationAggregatePipeline) gives, on real data: an
 * object target and an interface target, filters, every kind of result, a child listed twice.
 */

const SCHEMA = `
type Project {
  name: String! @id
  tasks: [Task]
  members: [Member]
}

type Task {
  id: ID!
  title: String! @search(by: [hash])
  priority: Int @search
  effort: Float @search
  due: DateTime @search
}

interface Member {
  id: ID!
  name: String! @search(by: [hash])
  score: Float @search
}

type Person implements Member {
  email: String
}

type Bot implements Member {
  version: Int
}
`;

const api = useService(SCHEMA);
const model = buildSchemaModel(SCHEMA).model!;

beforeAll(async () => {
  const tasks = (project: number) => Array.from({ length: 6 + project * 3 }, (_, i) => ({
    title: `p${project} task ${i}`,
    ...(i % 4 === 0 ? {} : { priority: (i * 3 + project) % 7 }),
    ...(i % 5 === 1 ? {} : { effort: ((i + 1) * 1.1) / (project + 1) }),
    ...(i % 3 === 2 ? {} : { due: `2024-0${1 + ((i + project) % 9)}-1${i % 10}T00:00:00Z` }),
  }));
  const members = (project: number) => [
    { person: { name: `ann${project}`, score: 1.5 * project, email: 'a@x' } },
    { bot: { name: `bot${project}`, score: project === 1 ? null : 9.25 - project, version: 2 } },
    { person: { name: `cy${project}` } },
  ];
  const input = [0, 1, 2].map((project) => ({ name: `proj${project}`, tasks: tasks(project) }));
  await api.data('mutation($input: [AddProjectInput!]!) { addProject(input: $input) { numUids } }', { input });
  for (const project of [0, 1, 2]) {
    for (const member of members(project)) {
      const [kind, fields] = Object.entries(member)[0]!;
      const added = await api.data(`mutation($input: [Add${kind === 'person' ? 'Person' : 'Bot'}Input!]!) { add${kind === 'person' ? 'Person' : 'Bot'}(input: $input) { ${kind} { id } } }`, { input: [fields] });
      const id = added[`add${kind === 'person' ? 'Person' : 'Bot'}`][kind][0].id;
      await api.data(`mutation { updateProject(input: { filter: { name: { eq: "proj${project}" } }, set: { members: [{ id: "${id}" }] } }) { numUids } }`);
    }
  }
  // An empty project, and one listing another project's task twice (the stored list is written directly).
  await api.data('mutation { addProject(input: [{ name: "empty" }]) { numUids } }');
  const [someTask] = await api.server.store.collection('Task').find({}, { limit: 1 });
  await api.server.store.collection('Project').insertMany([{ _id: 'twice', name: 'twice', tasks: [someTask!._id, someTask!._id] } as StoredDocument]);
});

const CASES: Array<[string, Record<string, unknown> | null, string[]]> = [
  ['tasks', null, ['count', 'priorityMin', 'priorityMax', 'prioritySum', 'priorityAvg', 'effortSum', 'effortAvg', 'dueMin', 'dueMax', 'titleMin', 'titleMax']],
  ['tasks', { priority: { ge: 3 } }, ['count', 'prioritySum', 'effortMax']],
  ['tasks', { not: { has: 'effort' } }, ['count', 'effortSum', 'effortAvg', 'effortMin']],
  ['tasks', { title: { in: ['nothing'] } }, ['count', 'prioritySum']],
  ['members', null, ['count', 'scoreMin', 'scoreMax', 'scoreSum', 'scoreAvg', 'nameMin', 'nameMax']],
  ['members', { name: { in: ['ann1', 'bot1', 'bot2'] } }, ['count', 'scoreSum', 'scoreAvg']],
];

test.each(CASES)('Project.%sAggregate(filter: %j) { %j }: projected reads folded per parent = grouping pipeline', async (fieldName, filter, requested) => {
  const store = api.server.store;
  const parents = await store.collection('Project').find({}, { sort: { _id: 1 } });
  const parentIds = parents.map((parent) => parent._id);
  const field = model.types.get('Project')!.fieldsByName.get(fieldName)!;

  const { queries, projection, outputs } = storedAggregateQueries(model, 'Project', fieldName, parents, filter, requested);
  const children = (await Promise.all(queries.map((query) => store.collection(query.collection).find(query.plan.match, { projection })))).flat();
  const folded = readRelationAggregates(foldStoredAggregates(field, parents, children, outputs), parentIds, requested);

  const { collection, pipeline } = relationAggregatePipeline(model, 'Project', fieldName, parents, filter, requested);
  const grouped = readRelationAggregates(await store.collection(collection).aggregate(pipeline), parentIds, requested);

  expect(Object.fromEntries(folded)).toEqual(Object.fromEntries(grouped));
  // Not vacuous: some parent has something to aggregate unless the filter excludes all.
  if (!JSON.stringify(filter).includes('nothing')) expect([...folded.values()].some((result) => (result.count as number) > 0)).toBe(true);
});

test('over HTTP: each parent its own aggregates, a child listed twice counted once, none for an empty list', async () => {
  const result = await api.data(`{
    queryProject(order: { asc: name }) {
      name
      tasksAggregate { count prioritySum }
      high: tasksAggregate(filter: { priority: { ge: 5 } }) { count priorityMin }
      membersAggregate { count scoreMax nameMin }
    }
  }`);
  expect(result.queryProject).toEqual([
    { name: 'empty', tasksAggregate: { count: 0, prioritySum: null }, high: { count: 0, priorityMin: null }, membersAggregate: { count: 0, scoreMax: null, nameMin: null } },
    { name: 'proj0', tasksAggregate: { count: 6, prioritySum: 12 }, high: { count: 1, priorityMin: 6 }, membersAggregate: { count: 3, scoreMax: 9.25, nameMin: 'ann0' } },
    { name: 'proj1', tasksAggregate: { count: 9, prioritySum: 15 }, high: { count: 1, priorityMin: 5 }, membersAggregate: { count: 3, scoreMax: 1.5, nameMin: 'ann1' } },
    { name: 'proj2', tasksAggregate: { count: 12, prioritySum: 26 }, high: { count: 2, priorityMin: 5 }, membersAggregate: { count: 3, scoreMax: 7.25, nameMin: 'ann2' } },
    { name: 'twice', tasksAggregate: { count: 1, prioritySum: null }, high: { count: 0, priorityMin: null }, membersAggregate: { count: 0, scoreMax: null, nameMin: null } },
  ]);
});
