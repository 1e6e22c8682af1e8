import { randomUUID } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import { GeneratedApiError } from '../resolve/schema.js';
import { appendSchemaRevision, withRevisionRetry, type ActivationOrigin } from '../schema-changes/history.js';
import { reportSchemaChange, type SchemaChangeReport } from '../schema-changes/report.js';
import type { SchemaError, SchemaModel, SourceLocation } from '../sdl/model.js';
import { indexesFor, INDEX_PREFIX } from '../store/indexes.js';
import { syncTextTokens } from './text-token-sync.js';
import { DuplicateKeyError, StoreUnavailableError, SYSTEM_COLLECTIONS, type IndexSpec, type IndexSync, type Store } from '../store/port.js';

/** The schema being served: one immutable value, replaced as a whole by an activation. */
export interface ActiveSchema {
  readonly text: string;
  readonly model: SchemaModel;
  readonly schema: GraphQLSchema;
  readonly activatedAt: Date;
}

export interface ActivationError {
  message: string;
  /** Present when the error points into the uploaded text. */
  locations?: SourceLocation[];
  /** The answer's code when it is not the one of the HTTP status (409: SCHEMA_BREAKS_STORED_DATA). */
  code?: ErrorCode;
}

export type ActivationResult =
  | {
      ok: true;
      active: ActiveSchema;
      types: string[];
      indexes: IndexSync;
      /** What changed from the schema served before; present when the schema was stored (an upload). */
      report?: SchemaChangeReport;
      /** The history revision it was stored as; present when the schema was stored. */
      revision?: number;
    }
  | {
      ok: false;
      /**
       * 400: the schema (or the stored data it would have to index) is at fault; 409: it would make stored
       * data unreadable and the upload did not say `force`; 503: the store is down.
       */
      httpStatus: 400 | 409 | 500 | 503;
      errors: ActivationError[];
      /** Present for a 409, so the caller sees the whole change it was refused for. */
      report?: SchemaChangeReport;
    };

/** The outcome of a dry run: the report of what the upload would change, or why it would be rejected anyway. */
export type DryRunResult = { ok: true; report: SchemaChangeReport } | Rejection;

/** How an upload asks to be activated. */
export interface ActivationOptions {
  /** Store the text (an upload, the text given at start); false when following the text another instance stored. */
  persist: boolean;
  /** Activate even when stored data would become unreadable (`?force=true`). */
  force?: boolean;
  /** A rollback: the history revision whose text this is. */
  restoredFrom?: number;
}

export interface ActivationSteps {
  store: Store;
  buildModel: (source: string) => { model?: SchemaModel; errors: SchemaError[] };
  buildSchema: (model: SchemaModel) => GraphQLSchema | Promise<GraphQLSchema>;
}

/** The single document of SYSTEM_COLLECTIONS.schema. */
export type StoredSchemaDocument = {
  _id: 'active';
  text: string;
  updatedAt: string;
  /** New with every save, so instances sharing the store notice each change (definition-sync.ts). */
  revision: string;
};

const ACTIVE_ID = 'active';

/**
 * Builds everything the new schema needs, in the order that keeps a failure harmless: model, executable
 * schema (both pure), then indexes (rolled back on failure), the stored term/fulltext tokens the indexes
 * read (rebuilt when the tokeniser changed or a field gained such an index), then the stored text. The
 * caller swaps the returned value in only when it is `ok`. User fields are never changed; only the token
 * fields derived from them are rewritten, which the previous schema would have derived the same way.
 */
export async function prepareActivation(
  text: string,
  previous: ActiveSchema | undefined,
  steps: ActivationSteps,
  options: ActivationOptions,
): Promise<ActivationResult> {
  const planned = await planActivation(text, previous, steps, { report: options.persist });
  if (!planned.ok) return planned;
  const { model, schema, report } = planned;
  if (report?.needsForce && !options.force) {
    return { ...rejected(409, refusalErrors(report)), report };
  }

  let indexes: IndexSync;
  try {
    indexes = await syncIndexes(steps.store, model, previous?.model);
  } catch (error) {
    return storeFailure('could not create the indexes of the schema', error);
  }

  try {
    await syncTextTokens(steps.store, model);
  } catch (error) {
    await restoreIndexes(steps.store, collectionsOf(model, previous?.model), previous?.model);
    return storeFailure('could not rebuild the stored term and fulltext tokens', error);
  }

  const activatedAt = new Date();
  let revision: number | undefined;
  if (options.persist) {
    const origin: ActivationOrigin = { restoredFrom: options.restoredFrom, forced: report?.needsForce === true };
    try {
      revision = await saveActiveSchemaText(steps.store, text, origin, activatedAt);
    } catch (error) {
      await restoreIndexes(steps.store, collectionsOf(model, previous?.model), previous?.model);
      return storeFailure('could not store the schema', error);
    }
  }

  const active: ActiveSchema = Object.freeze({ text, model, schema, activatedAt });
  return { ok: true, active, types: [...model.types.keys()], indexes, ...(report ? { report } : {}), ...(revision !== undefined ? { revision } : {}) };
}

/**
 * What `text` would change if uploaded now, with nothing stored, indexed or swapped in: the same checks as
 * an upload (a schema an upload would reject is rejected here with the same errors), then the report.
 */
export async function dryRunActivation(text: string, previous: ActiveSchema | undefined, steps: ActivationSteps): Promise<DryRunResult> {
  const planned = await planActivation(text, previous, steps, { report: true });
  if (!planned.ok) return planned;
  return { ok: true, report: planned.report! };
}

type Planned = { ok: true; model: SchemaModel; schema: GraphQLSchema; report?: SchemaChangeReport } | Rejection;

/** The pure part of an activation (model, executable schema), then, when asked, the change report. */
async function planActivation(text: string, previous: ActiveSchema | undefined, steps: ActivationSteps, options: { report: boolean }): Promise<Planned> {
  if (text.trim() === '') {
    return rejected(400, [{ message: 'the schema is empty: send the schema text as the request body' }]);
  }
  const built = steps.buildModel(text);
  if (!built.model || built.errors.length > 0) {
    return rejected(400, built.errors.map(toActivationError));
  }
  const model = built.model;
  // Each stage of a big schema holds the event loop for a while: requests that arrived meanwhile run in between.
  await yieldToEventLoop();

  let schema: GraphQLSchema;
  try {
    schema = await steps.buildSchema(model);
  } catch (error) {
    if (error instanceof GeneratedApiError) {
      return rejected(400, [error.locations.length > 0 ? { message: error.message, locations: error.locations } : { message: error.message }]);
    }
    return rejected(400, [{ message: `the generated API does not build: ${messageOf(error)}` }]);
  }
  if (!options.report) return { ok: true, model, schema };

  await yieldToEventLoop();
  try {
    const report = await reportSchemaChange(steps.store, previous, { model, schema });
    return { ok: true, model, schema, report };
  } catch (error) {
    return storeFailure('could not check the stored data against the schema', error);
  }
}

/** One error per stored-data problem that refuses the upload, at the field of the new schema when it has one. */
function refusalErrors(report: SchemaChangeReport): ActivationError[] {
  return report.storedData
    .filter((problem) => problem.blocking)
    .map((problem) => ({
      message: `${problem.message}; upload with ?force=true to activate the schema anyway`,
      ...(problem.locations ? { locations: problem.locations } : {}),
      code: ErrorCode.SCHEMA_BREAKS_STORED_DATA,
    }));
}

/** Stores `text` as the active schema and appends it to the history, in one transaction; answers its revision. */
async function saveActiveSchemaText(store: Store, text: string, origin: ActivationOrigin, activatedAt: Date): Promise<number> {
  const updatedAt = activatedAt.toISOString();
  const document: StoredSchemaDocument = { _id: ACTIVE_ID, text, updatedAt, revision: randomUUID() };
  return withRevisionRetry(() =>
    store.transaction(async (tx) => {
      const collection = store.collection(SYSTEM_COLLECTIONS.schema);
      await collection.deleteMany({ _id: ACTIVE_ID }, { tx });
      await collection.insertMany([document], { tx });
      return appendSchemaRevision(store, tx, text, origin, updatedAt);
    }),
  );
}

/**
 * Makes every collection's `ag_` indexes what `model` wants; collections of types the previous model had
 * and this one drops lose theirs. On failure the collections already changed go back to the previous
 * model's indexes, so a rejected upload leaves the indexes as they were.
 */
async function syncIndexes(store: Store, model: SchemaModel, previous: SchemaModel | undefined): Promise<IndexSync> {
  const wanted = indexesFor(model);
  const total: IndexSync = { created: [], dropped: [] };
  // Syncing creates a missing collection (on MongoDB explicitly, outside any transaction: a multi-shard
  // transaction cannot create one before MongoDB 8.0), so the service's own collections written in
  // transactions are synced too, with no index of ours.
  for (const own of [SYSTEM_COLLECTIONS.schema, SYSTEM_COLLECTIONS.lambda, SYSTEM_COLLECTIONS.schemaHistory]) await store.syncIndexes(own, [], INDEX_PREFIX);
  const changed: string[] = [];
  try {
    for (const collection of collectionsOf(model, previous)) {
      changed.push(collection);
      const sync = await store.syncIndexes(collection, wanted.get(collection) ?? [], INDEX_PREFIX);
      total.created.push(...sync.created.map((name) => `${collection}.${name}`));
      total.dropped.push(...sync.dropped.map((name) => `${collection}.${name}`));
    }
  } catch (error) {
    await restoreIndexes(store, changed, previous);
    throw error;
  }
  return total;
}

/** Best effort: the activation already failed, and its error is the one to report. */
async function restoreIndexes(store: Store, collections: string[], previous: SchemaModel | undefined): Promise<void> {
  const before = previous ? indexesFor(previous) : new Map<string, IndexSpec[]>();
  for (const collection of collections) {
    await store.syncIndexes(collection, before.get(collection) ?? [], INDEX_PREFIX).catch(() => undefined);
  }
}

/** Collections of the new model's object types, then those only the previous model had. */
function collectionsOf(model: SchemaModel, previous: SchemaModel | undefined): string[] {
  const names = new Set(indexesFor(model).keys());
  for (const name of previous ? indexesFor(previous).keys() : []) {
    names.add(name);
  }
  return [...names];
}

/** An activation refused before anything was swapped in (also a dry run's and a plan's refusal). */
type Rejection<Status extends number = 400 | 500 | 503> = { ok: false; httpStatus: Status; errors: ActivationError[] };

function storeFailure(what: string, error: unknown): Rejection {
  if (error instanceof StoreUnavailableError) {
    return rejected(503, [{ message: `${what}: ${error.message}` }]);
  }
  if (error instanceof DuplicateKeyError) {
    return rejected(400, [
      {
        message:
          `${what}: the stored ${error.collection} objects already hold duplicate values of ${error.field} ` +
          `(${JSON.stringify(error.value)}), so it cannot be an @id field`,
      },
    ]);
  }
  return rejected(500, [{ message: `${what}: ${messageOf(error)}` }]);
}

function rejected<Status extends 400 | 409 | 500 | 503>(httpStatus: Status, errors: ActivationError[]): Rejection<Status> {
  return { ok: false, httpStatus, errors };
}

function toActivationError(error: SchemaError): ActivationError {
  return error.locations.length > 0 ? { message: error.message, locations: error.locations } : { message: error.message };
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
