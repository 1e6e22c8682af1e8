/** A schema with every scalar type, a lambda script, data for them, and HTTP helpers for export and import. */
import type { Store, StoredDocument } from '../../src/store/port';
import { activateSchema, gqlData } from '../helpers/gql';
import { loadLambda } from '../custom-e2e/lambda-upload';

export const SCHEMA = `
enum Status { OPEN DONE }

type Person {
  handle: String! @id
  name: String @search(by: [term, fulltext])
  tasks: [Task] @hasInverse(field: owner)
  greeting: String @lambda
}

type Task {
  id: ID!
  title: String! @search(by: [exact])
  count: Int @search
  big: Int64
  score: Float
  done: Boolean
  due: DateTime @search
  status: Status
  labels: [String]
  points: [Int]
  weights: [Float]
  owner: Person
}
`;

export const LAMBDA = `self.addGraphQLResolvers({ 'Person.greeting': ({ parent }) => 'hello ' + parent.handle });`;

export const UNICODE_TITLE = 'Ünïcødé 😀 "quoted" \\ back\nslash \u2028 \u0000 end';

/** Activates the schema and script and stores two people and three tasks; float extremes come as literals (JSON has no -0). */
export async function seed(url: string, adminToken?: string): Promise<void> {
  await loadLambda(url, LAMBDA, adminToken);
  await activateSchema(url, SCHEMA, adminToken);
  await gqlData(url, `mutation($people: [AddPersonInput!]!) { addPerson(input: $people) { numUids } }`, {
    people: [{ handle: 'ada', name: 'Ada Lovelace' }, { handle: 'bob' }],
  });
  await gqlData(
    url,
    `mutation($title: String!) { addTask(input: [
      { title: $title, count: 2147483647, big: 9007199254740991, score: -0.0, done: true, due: "2026-01-31T12:00:00.123Z",
        status: DONE, labels: ["a", "", "ß"], points: [-2147483648, 0], weights: [1.5, -0.0, 5e-324], owner: { handle: "ada" } },
      { title: "large", count: -1, big: -9007199254740991, score: 1.7976931348623157e308, done: false, due: "1970-01-01T00:00:00Z",
        status: OPEN, labels: [], points: [], weights: [-1.7976931348623157e308], owner: { handle: "bob" } },
      { title: "nulls" }
    ]) { numUids } }`,
    { title: UNICODE_TITLE },
  );
}

/** Every field of every object, through the API. */
export const EVERYTHING = `{
  queryPerson(order: { asc: handle }) { handle name greeting tasks(order: { asc: title }) { title } }
  queryTask(order: { asc: title }) { id title count big score done due status labels points weights owner { handle } }
}`;

export async function exportText(url: string): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`${url}/admin/export`);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

export async function importText(url: string, text: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/admin/import`, { method: 'POST', body: text });
  return { status: response.status, body: await response.json() };
}

/** Every document of `collection`, sorted by `_id`, as the store holds it. */
export async function storedDocuments(store: Store, collection: string): Promise<StoredDocument[]> {
  const documents = await store.collection(collection).find({});
  return documents.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
}

/** The lines of an export as parsed JSON. */
export function exportLines(text: string): Record<string, unknown>[] {
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}
