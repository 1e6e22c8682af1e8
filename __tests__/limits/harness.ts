/**
 * Validation rule tests in the shape of graphql-js `validation/__tests__/harness.ts`: a rule and a
 * document in, the errors' messages and locations out.
 */
import { buildSchema, parse, validate, type GraphQLSchema, type ValidationRule } from 'graphql';

/** A small schema with the shapes the rules care about: paged lists, single objects, federation's `_entities`. */
export const LIMITS_TEST_SCHEMA: GraphQLSchema = buildSchema(`
  scalar _Any
  union _Entity = Mission | Astronaut
  directive @tag(name: String) repeatable on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT | QUERY | FRAGMENT_DEFINITION

  type Query {
    queryMission(filter: MissionFilter, first: Int, offset: Int): [Mission]
    getMission(id: ID!): Mission
    _entities(representations: [_Any!]!): [_Entity]!
    tags: [String]
    missionsOfTheDay: [Mission]
  }

  type Mutation {
    addMission(input: [AddMissionInput!]!): AddMissionPayload
    updateMission(input: UpdateMissionInput!): AddMissionPayload
  }

  input AddMissionInput { designation: String, crew: [AstronautRef] }
  input AstronautRef { id: ID }
  input UpdateMissionInput { filter: MissionFilter! }

  type AddMissionPayload {
    numUids: Int
    mission(first: Int, offset: Int): [Mission]
  }

  input MissionFilter { designation: String, and: [MissionFilter], not: MissionFilter }

  type Mission {
    id: ID!
    designation: String
    crew(first: Int, offset: Int): [Astronaut]
    commander: Astronaut
  }

  type Astronaut {
    id: ID!
    missions(first: Int, offset: Int): [Mission]
  }
`);

export interface ReportedError {
  message: string;
  locations?: Array<{ line: number; column: number }>;
}

export function expectErrors(rule: ValidationRule, query: string, schema: GraphQLSchema = LIMITS_TEST_SCHEMA): ReportedError[] {
  return validate(schema, parse(query), [rule]).map((error) => {
    const json = error.toJSON();
    return json.locations ? { message: json.message, locations: [...json.locations] } : { message: json.message };
  });
}

export function expectValid(rule: ValidationRule, query: string, schema: GraphQLSchema = LIMITS_TEST_SCHEMA): void {
  expect(expectErrors(rule, query, schema)).toEqual([]);
}
