import { findBreakingChanges, findDangerousChanges, type GraphQLSchema } from 'graphql';

/** One change graphql-js finds between the two generated APIs, e.g. `{ type: "FIELD_REMOVED", description: "Task.label was removed." }`. */
export interface ApiChange {
  type: string;
  description: string;
}

export interface ApiDiff {
  /** Root fields of the generated API, as `Query.getTask`, `Mutation.addTask` (federation's `_service` and `_entities` left out). */
  operationsAdded: string[];
  operationsRemoved: string[];
  /** Changes that make some valid operation of an existing client invalid or answer differently typed data. */
  breaking: ApiChange[];
  /** Changes that existing operations survive but whose answers may surprise a client (an enum value added, say). */
  dangerous: ApiChange[];
}

/**
 * Compares two generated API schemas; with no previous one, every operation is added and nothing breaks.
 * Each graphql-js comparison walks the whole API (about 0.4 s at 500 user types): `pause` runs between
 * them, so requests that arrived meanwhile are answered.
 */
export async function diffApis(previous: GraphQLSchema | undefined, next: GraphQLSchema, pause: () => Promise<void> = async () => {}): Promise<ApiDiff> {
  const before = new Set(previous === undefined ? [] : operationsOf(previous));
  const after = operationsOf(next);
  const afterSet = new Set(after);
  const breaking = previous === undefined ? [] : findBreakingChanges(previous, next).map(toApiChange);
  await pause();
  const dangerous = previous === undefined ? [] : findDangerousChanges(previous, next).map(toApiChange);
  return {
    operationsAdded: after.filter((name) => !before.has(name)),
    operationsRemoved: [...before].filter((name) => !afterSet.has(name)),
    breaking,
    dangerous,
  };
}

/** The operations a client can call; the federation plumbing (`_service`, `_entities`) is the gateway's, not listed. */
function operationsOf(schema: GraphQLSchema): string[] {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  return roots.flatMap((root) =>
    root ? Object.keys(root.getFields()).filter((field) => !field.startsWith('_')).map((field) => `${root.name}.${field}`) : [],
  );
}

function toApiChange(change: { type: string; description: string }): ApiChange {
  return { type: change.type, description: change.description };
}
