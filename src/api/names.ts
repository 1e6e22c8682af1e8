/** Names of the generated types and operations for a user type, in one place so api/ and resolve/ agree. */

export const names = {
  filter: (type: string) => `${type}Filter`,
  order: (type: string) => `${type}Order`,
  orderable: (type: string) => `${type}Orderable`,
  hasFilter: (type: string) => `${type}HasFilter`,
  aggregateResult: (type: string) => `${type}AggregateResult`,
  addInput: (type: string) => `Add${type}Input`,
  updateInput: (type: string) => `Update${type}Input`,
  patch: (type: string) => `${type}Patch`,
  ref: (type: string) => `${type}Ref`,
  addPayload: (type: string) => `Add${type}Payload`,
  updatePayload: (type: string) => `Update${type}Payload`,
  deletePayload: (type: string) => `Delete${type}Payload`,
  get: (type: string) => `get${type}`,
  query: (type: string) => `query${type}`,
  aggregate: (type: string) => `aggregate${type}`,
  add: (type: string) => `add${type}`,
  update: (type: string) => `update${type}`,
  delete: (type: string) => `delete${type}`,
  /** The list field of a payload: `task` for `Task`, as Dgraph names it. */
  payloadField: (type: string) => type.charAt(0).toLowerCase() + type.slice(1),
  relationAggregate: (field: string) => `${field}Aggregate`,
  /** `@secret`: `checkTPassword`. */
  checkPassword: (type: string) => `check${type}Password`,
} as const;

export type OperationKind = 'get' | 'query' | 'aggregate' | 'add' | 'update' | 'delete';

/** Names generated for a union `U` and its members, as Dgraph spells them (`memberTypes`, `humanFilter`, `humanRef`). */
export const unionNames = {
  memberTypeEnum: (union: string) => `${union}Type`,
  memberFilter: (member: string) => `${names.payloadField(member)}Filter`,
  memberRef: (member: string) => `${names.payloadField(member)}Ref`,
} as const;
