/** Schemas for the auth tests. */
import { buildSchemaModel } from '../../src/sdl/build.js';
import type { SchemaModel } from '../../src/sdl/model.js';

/** Task/User (spec 5.3) grown by teams, tags and an interface, to reach every kind of relation. */
export const RULES_SCHEMA = `
interface Owned {
  owner: String! @search(by: [hash])
}

type Note implements Owned {
  id: ID!
  text: String
}

type Task {
  id: ID!
  title: String! @search(by: [fulltext])
  completed: Boolean! @search
  user: User!
  tags: [Tag]
}

type User {
  username: String! @id @search(by: [hash])
  name: String
  tasks: [Task] @hasInverse(field: user)
  team: Team
}

type Team {
  id: ID!
  name: String! @search(by: [hash])
  members: [User] @hasInverse(field: team)
}

type Tag {
  id: ID!
  label: String! @search(by: [hash])
}
`;

export function modelOf(source: string): SchemaModel {
  const { model, errors } = buildSchemaModel(source);
  if (!model) throw new Error(`test schema does not build: ${JSON.stringify(errors)}`);
  return model;
}
