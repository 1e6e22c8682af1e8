import type { GraphQLSchema } from 'graphql';
import type { SchemaModel } from '../sdl/model.js';
import type { Store } from '../store/port.js';
import { diffApis, type ApiChange } from './api-diff.js';
import { diffIndexes } from './index-diff.js';
import { diffModels, type FieldEntry, type RetypedField } from './model-diff.js';
import { findStoredDataProblems, type StoredDataProblem } from './stored-data-check.js';
import { storedDataRisks } from './stored-data-risks.js';

/** What an upload changes, as `POST /admin/schema?dryRun=true` answers it and a real upload reports it. */
export interface SchemaChangeReport {
  types: { added: string[]; removed: string[] };
  fields: { added: FieldEntry[]; removed: FieldEntry[]; retyped: RetypedField[] };
  /** Root fields of the generated API (`Query.getTask`). */
  operations: { added: string[]; removed: string[] };
  indexes: { created: string[]; dropped: string[] };
  /** graphql-js's verdict on the generated APIs: changes that break operations existing clients send. */
  breakingChanges: ApiChange[];
  dangerousChanges: ApiChange[];
  /** Stored objects the new schema would read differently, each with an example `_id`. */
  storedData: StoredDataProblem[];
  /** Whether some operation an existing client sends may stop validating or answer differently typed data. */
  breaksClients: boolean;
  /** Whether stored data makes the upload refused unless it says `force`. */
  needsForce: boolean;
}

export interface SchemaVersion {
  model: SchemaModel;
  schema: GraphQLSchema;
}

/**
 * Compares the served schema with an upload: the user schemas, the generated APIs and their indexes
 * (pure), then the stored objects the change concerns (one existence query each). It yields between the
 * stages, as the activation does.
 */
export async function reportSchemaChange(store: Store, previous: SchemaVersion | undefined, next: SchemaVersion): Promise<SchemaChangeReport> {
  const models = diffModels(previous?.model, next.model);
  await yieldToEventLoop();
  const apis = await diffApis(previous?.schema, next.schema, yieldToEventLoop);
  await yieldToEventLoop();
  const storedData = previous === undefined ? [] : await findStoredDataProblems(store, storedDataRisks(previous.model, next.model));
  return {
    types: { added: models.typesAdded, removed: models.typesRemoved },
    fields: { added: models.fieldsAdded, removed: models.fieldsRemoved, retyped: models.fieldsRetyped },
    operations: { added: apis.operationsAdded, removed: apis.operationsRemoved },
    indexes: diffIndexes(previous?.model, next.model),
    breakingChanges: apis.breaking,
    dangerousChanges: apis.dangerous,
    storedData,
    breaksClients: apis.breaking.length > 0,
    needsForce: storedData.some((problem) => problem.blocking),
  };
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
