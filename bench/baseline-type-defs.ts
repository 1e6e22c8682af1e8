/**
 * The type definitions both hand-written baselines serve (bench/baseline.ts over the store, bench/in-memory-baseline.ts
 * over Maps): the generated API's shapes that the scenarios' request bodies use, so all services answer the same bodies.
 */
export const BASELINE_TYPE_DEFS = `#graphql
  type Task {
    id: ID!
    title: String!
    priority: Int
    completed: Boolean!
    createdAt: String
    user: User!
  }

  type User {
    username: String!
    name: String
    tasks(first: Int, offset: Int): [Task]
  }

  input StringTermFilter { allofterms: String, anyofterms: String }
  input IntFilter { eq: Int, le: Int, lt: Int, ge: Int, gt: Int }
  input TaskFilter { title: StringTermFilter, completed: Boolean, priority: IntFilter }
  enum TaskOrderable { title priority createdAt }
  input TaskOrder { asc: TaskOrderable, desc: TaskOrderable }

  type TaskAggregateResult { count: Int, priorityMin: Int, priorityMax: Int, priorityAvg: Float }

  input UserRef { username: String! }
  input AddTaskInput { title: String!, priority: Int, completed: Boolean!, createdAt: String, user: UserRef! }
  type AddTaskPayload { numUids: Int, task: [Task] }

  type Query {
    getTask(id: ID!): Task
    queryTask(filter: TaskFilter, order: TaskOrder, first: Int, offset: Int): [Task]
    queryUser(first: Int, offset: Int): [User]
    aggregateTask(filter: TaskFilter): TaskAggregateResult
  }

  type Mutation {
    addTask(input: [AddTaskInput!]!): AddTaskPayload
  }
`;
