/** Schemas the server tests upload. */

/** The spec's Task/User schema (section 5.3, item 5). */
export const TASKS_SCHEMA = `type Task {
  id: ID!
  title: String! @search(by: [fulltext])
  completed: Boolean! @search
  user: User!
}

type User {
  username: String! @id @search(by: [hash])
  name: String
  tasks: [Task] @hasInverse(field: user)
}
`;

/** TASKS_SCHEMA plus a field and a type. */
export const TASKS_SCHEMA_V2 = `${TASKS_SCHEMA}
type Project {
  id: ID!
  name: String! @search(by: [exact])
}
`.replace('  name: String\n', '  name: String\n  email: String @search(by: [hash])\n');

/** Two errors: an unknown type on line 4 and a search index that does not fit its scalar on line 5. */
export const BROKEN_SCHEMA = `type Task {
  id: ID!
  title: String!
  owner: Person
  done: Boolean @search(by: [fulltext])
}
`;
