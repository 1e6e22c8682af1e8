import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FilterPlan } from '../../../src/query/filter.js';
import type { TypeConstraint } from '../../../src/resolve/authorize.js';
import type { MutationAuth } from '../../../src/resolve/mutations/run.js';
import { buildSchemaModel } from '../../../src/sdl/build.js';
import type { SchemaModel } from '../../../src/sdl/model.js';
import { openEmbeddedStore } from '../../../src/store/embedded/index.js';
import { INDEX_PREFIX, indexesFor } from '../../../src/store/indexes.js';
import type { Collection, Store, StoredDocument } from '../../../src/store/port.js';
import { withCollections } from '../../../src/store/with-collections.js';

/**
 * In-process mutation tests: a model from SDL and an embedded store in a temporary folder with the
 * model's indexes (the unique `@id` indexes among them), emptied before each test.
 */

export function modelOf(sdl: string): SchemaModel {
  const built = buildSchemaModel(sdl);
  if (!built.model) throw new Error(`test schema rejected: ${JSON.stringify(built.errors)}`);
  return built.model;
}

export interface MutationStore {
  readonly store: Store;
  /** Every document of a collection without its `_id`, sorted by `by`. */
  contents(collection: string, by?: string): Promise<Record<string, unknown>[]>;
  /** Every document of a collection, `_id` included, by `_id`. */
  documents(collection: string): Promise<StoredDocument[]>;
}

/** Opens the store in `beforeAll`, empties its collections in `beforeEach` and closes it in `afterAll`. */
export function useMutationStore(model: SchemaModel): MutationStore {
  let folder = '';
  let store: Store | undefined;
  const open = (): Store => {
    if (!store) throw new Error('store not open yet');
    return store;
  };

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-mutations-'));
    store = await openEmbeddedStore(folder);
    for (const [collection, specs] of indexesFor(model)) await store.syncIndexes(collection, specs, INDEX_PREFIX);
  });

  beforeEach(async () => {
    for (const type of model.types.values()) {
      if (type.kind === 'type') await open().collection(type.name).deleteMany({});
    }
  });

  afterAll(async () => {
    await store?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  return {
    get store() {
      return open();
    },
    async contents(collection, by = '_id') {
      const found = await open().collection(collection).find({}, { sort: { [by]: 1 } });
      return found.map(({ _id, ...fields }) => fields);
    },
    documents: (collection) => open().collection(collection).find({}, { sort: { _id: 1 } }),
  };
}

const plan = (match: Record<string, unknown>): FilterPlan => ({ lookups: [], match });

/** A constraint from plain match documents per type (types not named are unrestricted). */
export function constraint(rules: Record<string, Record<string, unknown>>): TypeConstraint {
  return (typeName) => (typeName in rules ? plan(rules[typeName]!) : undefined);
}

export const unrestricted: TypeConstraint = () => undefined;

/** Auth for a mutation: each operation's rules (absent: unrestricted). */
export function authOf(rules: Partial<Record<keyof MutationAuth, Record<string, Record<string, unknown>>>>): MutationAuth {
  return {
    query: rules.query ? constraint(rules.query) : unrestricted,
    add: rules.add ? constraint(rules.add) : unrestricted,
    update: rules.update ? constraint(rules.update) : unrestricted,
    delete: rules.delete ? constraint(rules.delete) : unrestricted,
  };
}

/**
 * The stored documents of `collections`, each under the label its `labelField` gives it, with every
 * generated id (in `_id` and in relation fields) replaced by `#label`: exact stored values, readable.
 */
export async function storedByLabel(store: Store, labelFields: Record<string, string>): Promise<Record<string, Record<string, unknown>>> {
  const documents = new Map<string, StoredDocument[]>();
  const labels = new Map<string, string>();
  for (const [collection, field] of Object.entries(labelFields)) {
    const found = await store.collection(collection).find({}, { sort: { _id: 1 } });
    documents.set(collection, found);
    for (const document of found) labels.set(document._id, `#${String(document[field] ?? document._id)}`);
  }
  const relabel = (value: unknown): unknown => {
    if (typeof value === 'string') return labels.get(value) ?? value;
    if (Array.isArray(value)) return value.map(relabel);
    return value;
  };
  const view: Record<string, Record<string, unknown>> = {};
  for (const found of documents.values()) {
    for (const { _id, ...fields } of found) {
      view[labels.get(_id)!] = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, relabel(value)]));
    }
  }
  return view;
}

/** `store` with every collection call written to `calls` as `method collection argument` (the first argument as JSON). */
export function recording(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const wrap = (name: string): Collection => {
    const inner = store.collection(name);
    const note = (method: string, argument: unknown) => calls.push(`${method} ${name} ${JSON.stringify(argument)}`);
    return {
      name: inner.name,
      find: (filter, options, scope) => (note('find', filter), inner.find(filter, options, scope)),
      findPerKey: (field, keys, filter, page, scope) => (note('findPerKey', keys), inner.findPerKey(field, keys, filter, page, scope)),
      count: (filter, scope) => (note('count', filter), inner.count(filter, scope)),
      aggregate: (pipeline, scope) => (note('aggregate', pipeline), inner.aggregate(pipeline, scope)),
      insertMany: (documents, scope) => (note('insertMany', documents), inner.insertMany(documents, scope)),
      updateMany: (filter, update, scope) => (note('updateMany', [filter, update]), inner.updateMany(filter, update, scope)),
      deleteMany: (filter, scope) => (note('deleteMany', filter), inner.deleteMany(filter, scope)),
    };
  };
  return { store: withCollections(store, wrap), calls };
}

/** The error a mutation's promise rejects with, as { code, message } (the code from its extensions, or its own). */
export async function failureOf(promise: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason);
  if (!(error instanceof Error)) throw new Error('expected the mutation to fail');
  const code = (error as { extensions?: { code?: unknown } }).extensions?.code ?? (error as { code?: unknown }).code;
  return { code, message: error.message };
}

/** The error a mutation's promise rejects with, as its message and every extension (or its own code without any). */
export async function refusalOf(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await promise.then(() => undefined, (reason: unknown) => reason);
  if (!(error instanceof Error)) throw new Error('expected the mutation to fail');
  const { code, extensions } = error as { code?: unknown; extensions?: Record<string, unknown> };
  return { message: error.message, ...(extensions && Object.keys(extensions).length > 0 ? extensions : { code }) };
}
