/**
 * The API benchmark's scenarios: the request bodies every service answers, the same for all of them.
 * The first seven follow issue 17's table (a get with its user, an ordered page of a term search, a nested
 * page, two counts, a write), plus the aggregate of issue 3.
 */
import { RARE_TERM, USERS, usernameOf, type LoadedData } from './api-data.js';

export interface RequestBody {
  query: string;
  variables?: Record<string, unknown>;
}

export interface Scenario {
  name: string;
  description: string;
  /** One or more request bodies; autocannon cycles through them. */
  bodies(data: LoadedData): RequestBody[];
  /** Relation nesting depth of a query (round-trip target depth + 1); undefined for mutations. */
  depth?: number;
  /** Whether every service must answer the first body with the same data. */
  compareAnswers: boolean;
  /**
   * Connections for a request that takes hundreds of milliseconds of CPU: more would only queue behind
   * one another on the single-threaded service and run into the load generator's time-out.
   */
  heavy?: boolean;
}

export const ADD_BATCH = 100;
let addRound = 0;

/** Mutations, which the in-memory baseline answers by appending to its Maps, without writing anything to disk. */
export const isWrite = (scenario: Scenario): boolean => scenario.depth === undefined;

export const SCENARIOS: Scenario[] = [
  {
    name: 'getTask',
    description: 'getTask(id) { title user { username name } }, 100 different ids',
    depth: 1,
    compareAnswers: true,
    bodies: (data) => {
      const step = Math.max(1, Math.floor(data.taskIds.length / 100));
      return data.taskIds.filter((_, i) => i % step === 0).slice(0, 100).map((id) => ({
        query: 'query($id: ID!) { getTask(id: $id) { id title completed user { username name } } }',
        variables: { id },
      }));
    },
  },
  {
    name: 'queryTask',
    description: `open tasks with "${RARE_TERM}" in the title, newest first, first 20`,
    depth: 0,
    compareAnswers: true,
    bodies: () => [{
      query: `query { queryTask(filter: { title: { anyofterms: "${RARE_TERM}" }, completed: false }, order: { desc: createdAt }, first: 20) { id title priority completed createdAt } }`,
    }],
  },
  {
    name: 'queryUser',
    description: 'queryUser(first: 100) { username tasks(first: 10) { title } }',
    depth: 1,
    compareAnswers: true,
    heavy: true,
    bodies: () => [{ query: '{ queryUser(first: 100) { username tasks(first: 10) { title } } }' }],
  },
  {
    name: 'countCompleted',
    description: 'aggregateTask(filter: { completed: true }) { count } (half the tasks match)',
    depth: 0,
    compareAnswers: true,
    heavy: true,
    bodies: () => [{ query: '{ aggregateTask(filter: { completed: true }) { count } }' }],
  },
  {
    name: 'countOpenWithTerm',
    description: `aggregateTask(filter: term "${RARE_TERM}", completed: false) { count } (~1.7% of the open tasks match)`,
    depth: 0,
    compareAnswers: true,
    bodies: () => [{ query: `{ aggregateTask(filter: { title: { anyofterms: "${RARE_TERM}" }, completed: false }) { count } }` }],
  },
  {
    name: 'aggregateTask',
    description: 'aggregateTask(filter: Boolean) { count priorityMin priorityMax priorityAvg }',
    depth: 0,
    compareAnswers: true,
    heavy: true,
    bodies: () => [{ query: '{ aggregateTask(filter: { completed: true }) { count priorityMin priorityMax priorityAvg } }' }],
  },
  // Last: every addTask request grows the Task collection by 100 (tens of thousands over a run), which
  // would otherwise change the data the later scenarios read.
  {
    name: 'addTask',
    description: `addTask of ${ADD_BATCH} objects in one mutation, each referencing its user by @id`,
    compareAnswers: false,
    bodies: () => Array.from({ length: 20 }, () => {
      addRound += 1;
      return {
        query: 'mutation($input: [AddTaskInput!]!) { addTask(input: $input) { numUids } }',
        variables: {
          input: Array.from({ length: ADD_BATCH }, (_, i) => ({
            title: `bench added ${addRound}-${i}`,
            priority: 1 + (i % 5),
            completed: i % 2 === 0,
            createdAt: '2026-01-01T00:00:00.000Z',
            user: { username: usernameOf((addRound * ADD_BATCH + i) % USERS) },
          })),
        },
      };
    }),
  },
];
