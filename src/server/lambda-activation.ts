import { randomUUID } from 'node:crypto';
import { customHttpProblems, LambdaScriptError, missingLambdaResolvers, missingWebhooks } from '../custom/index.js';
import type { SchemaError, SchemaModel } from '../sdl/model.js';
import { StoreUnavailableError, SYSTEM_COLLECTIONS, type Store } from '../store/port.js';
import type { ActivationError } from './activation.js';
import type { SwappableLambdaHost } from './lambda-runtime.js';

export type LambdaActivationResult =
  | { ok: true; resolvers: string[]; webhooks: string[] }
  | { ok: false; httpStatus: 400 | 500 | 503; errors: ActivationError[] };

/** The single document of SYSTEM_COLLECTIONS.lambda. */
/** `revision` is new with every save, so instances sharing the store notice each change (definition-sync.ts). */
export type StoredLambdaDocument = { _id: 'active'; text: string; updatedAt: string; revision: string };

const ACTIVE_ID = 'active';

/**
 * Loads `text` as the lambda script: it must load in a fresh host and serve every `@lambda` field and
 * every `@lambdaOnMutate` webhook of the active schema (the script is the second of the two to arrive, so the gap is its error). Only then is
 * it stored (when `persist`) and swapped in; on any error the running script keeps serving.
 */
export async function activateLambdaScript(
  text: string,
  runtime: SwappableLambdaHost,
  steps: { store: Store; activeModel: SchemaModel | undefined },
  options: { persist: boolean },
): Promise<LambdaActivationResult> {
  if (text.trim() === '') {
    return { ok: false, httpStatus: 400, errors: [{ message: 'the lambda script is empty: send the JavaScript text as the request body' }] };
  }
  let prepared;
  try {
    prepared = await runtime.prepare(text);
  } catch (error) {
    if (!(error instanceof LambdaScriptError)) throw error;
    return { ok: false, httpStatus: 400, errors: [error.location ? { message: error.message, locations: [error.location] } : { message: error.message }] };
  }
  const missing = steps.activeModel ? [...missingLambdaResolvers(steps.activeModel, prepared.host), ...missingWebhooks(steps.activeModel, prepared.host)] : [];
  if (missing.length > 0) {
    await runtime.discard(prepared);
    // The locations point into the schema, not into the uploaded script: they go into the message.
    return { ok: false, httpStatus: 400, errors: missing.map((error) => ({ message: `${error.message} ${schemaPlace(error)}`.trim() })) };
  }
  if (options.persist) {
    try {
      await saveLambdaText(steps.store, text);
    } catch (error) {
      await runtime.discard(prepared);
      const status = error instanceof StoreUnavailableError ? 503 : 500;
      return { ok: false, httpStatus: status, errors: [{ message: `could not store the lambda script: ${(error as Error).message}` }] };
    }
  }
  runtime.publish(prepared);
  return { ok: true, resolvers: prepared.resolvers, webhooks: prepared.webhooks };
}

/**
 * Problems of custom logic in a schema about to be activated: `@custom(http:)` settings (including
 * secret names that are not configured), and, when a script is loaded (the schema comes second),
 * `@lambda` fields and `@lambdaOnMutate` webhooks it does not serve.
 */
export function customLogicProblems(model: SchemaModel, runtime: SwappableLambdaHost, secretNames: ReadonlySet<string>): SchemaError[] {
  const lambda = runtime.script === undefined ? [] : [...missingLambdaResolvers(model, runtime), ...missingWebhooks(model, runtime)];
  return [...lambda, ...customHttpProblems(model, { secretNames })];
}

async function saveLambdaText(store: Store, text: string): Promise<void> {
  const document: StoredLambdaDocument = { _id: ACTIVE_ID, text, updatedAt: new Date().toISOString(), revision: randomUUID() };
  await store.transaction(async (tx) => {
    const collection = store.collection(SYSTEM_COLLECTIONS.lambda);
    await collection.deleteMany({ _id: ACTIVE_ID }, { tx });
    await collection.insertMany([document], { tx });
  });
}

function schemaPlace(error: SchemaError): string {
  const [first] = error.locations;
  return first ? `(schema line ${first.line}, column ${first.column})` : '';
}
