/**
 * The `term`, `fulltext` and `ngram` tokens are stored beside each document (`_term_<f>`, `_fulltext_<f>`,
 * `_ngram_<f>`), written
 * when the document is. Tokens written by an older tokeniser, or never written because the field had no
 * such index then, would make filters miss documents. So an activation rebuilds every token field the
 * model wants that is not recorded as built by the current tokeniser (`TEXT_TOKENS_VERSION`), then
 * records what it built in the document `text-tokens` of the schema collection. With nothing to rebuild
 * (every restart after the first) it costs one read.
 */
import { storedCollectionOf } from '../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import { storedPath } from '../query/schema-facts.js';
import { TEXT_TOKENS_VERSION, TOKEN_INDEXES } from '../query/text-index.js';
import { SYSTEM_COLLECTIONS, type Collection, type StoredDocument, type Store, type Transaction } from '../store/port.js';

const MARKER_ID = 'text-tokens';
/** Documents read and rewritten per transaction. */
const BATCH_SIZE = 2000;

/** The record of which token fields hold tokens of which tokeniser version. */
interface TextTokensMarker {
  _id: typeof MARKER_ID;
  version: number;
  /** `<Type>.<derived field>`, e.g. `Task._term_title`. */
  fields: string[];
}

interface TokenField {
  source: string;
  derived: string;
  tokenise: (text: string) => string[];
}

export interface TextTokenRebuild {
  /** `<Type>.<derived field>` of every token field rebuilt. */
  rebuilt: string[];
  /** Documents rewritten. */
  documents: number;
}

function tokenFieldsOf(field: FieldModel): TokenField[] {
  const source = storedPath(field);
  return TOKEN_INDEXES.filter(({ index }) => field.search.includes(index)).map(({ fieldName, tokenise }) => ({ source, derived: fieldName(source), tokenise }));
}

/** The token fields each stored type wants, by type. */
function wantedTokenFields(model: SchemaModel): Map<TypeModel, TokenField[]> {
  const wanted = new Map<TypeModel, TokenField[]>();
  for (const type of model.types.values()) {
    if (type.kind !== 'type') continue;
    const fields = type.fields.filter((field) => field.of.kind !== 'relation' && !field.external && !field.lambda && field.custom === undefined).flatMap(tokenFieldsOf);
    if (fields.length > 0) wanted.set(type, fields);
  }
  return wanted;
}

/** Tokens of a stored value; a value that is not text (left by an older schema) has none. */
function tokensOfStored(value: unknown, tokenise: (text: string) => string[]): string[] | undefined {
  if (typeof value === 'string') return tokenise(value);
  if (Array.isArray(value)) {
    const texts = value.filter((item): item is string => typeof item === 'string');
    return texts.length === 0 ? undefined : [...new Set(texts.flatMap(tokenise))];
  }
  return undefined;
}

async function readMarker(store: Store): Promise<TextTokensMarker | undefined> {
  const [found] = await store.collection(SYSTEM_COLLECTIONS.schema).find({ _id: MARKER_ID });
  if (!found || typeof found.version !== 'number' || !Array.isArray(found.fields)) return undefined;
  return { _id: MARKER_ID, version: found.version, fields: found.fields.filter((field): field is string => typeof field === 'string') };
}

async function saveMarker(store: Store, fields: string[]): Promise<void> {
  const marker: TextTokensMarker = { _id: MARKER_ID, version: TEXT_TOKENS_VERSION, fields };
  await store.transaction(async (tx) => {
    const collection = store.collection(SYSTEM_COLLECTIONS.schema);
    await collection.deleteMany({ _id: MARKER_ID }, { tx });
    await collection.insertMany([marker as unknown as StoredDocument], { tx });
  });
}

/** Each of `fields`' derived name with its tokens recomputed from `document` (undefined: none). */
function freshTokens(document: StoredDocument, fields: TokenField[]): Array<[string, string[] | undefined]> {
  return fields.map((field) => [field.derived, tokensOfStored(document[field.source], field.tokenise)]);
}

/** `document` with its `fields` tokens recomputed. */
function retokenised(document: StoredDocument, fields: TokenField[]): StoredDocument {
  const copy: StoredDocument = { ...document };
  for (const [derived, tokens] of freshTokens(document, fields)) {
    if (tokens === undefined) delete copy[derived];
    else copy[derived] = tokens;
  }
  return copy;
}

/** The update that gives `document` its `fields` tokens recomputed. */
function tokenUpdate(document: StoredDocument, fields: TokenField[]): Record<string, Record<string, unknown>> {
  const set: Record<string, unknown> = {};
  const unset: Record<string, ''> = {};
  for (const [derived, tokens] of freshTokens(document, fields)) {
    if (tokens === undefined) unset[derived] = '';
    else set[derived] = tokens;
  }
  const update: Record<string, Record<string, unknown>> = {};
  if (Object.keys(set).length > 0) update.$set = set;
  if (Object.keys(unset).length > 0) update.$unset = unset;
  return update;
}

/**
 * How a batch is rewritten inside its transaction. The embedded store's transactions are always atomic,
 * and one update per document there costs time that grows with the collection, so a batch is replaced:
 * deleted, then inserted with the new tokens. MongoDB's transactions are atomic only on a replica set
 * (a standalone server runs them write by write, where a crash between the delete and the insert would
 * lose documents), so there each document gets its own update, which never loses one.
 */
async function rewriteBatch(store: Store, collection: Collection, documents: StoredDocument[], fields: TokenField[], tx: Transaction): Promise<void> {
  if (store.kind === 'embedded') {
    await collection.deleteMany({ _id: { $in: documents.map((document) => document._id) } }, { tx });
    await collection.insertMany(documents.map((document) => retokenised(document, fields)), { tx });
    return;
  }
  for (const document of documents) await collection.updateMany({ _id: document._id }, tokenUpdate(document, fields), { tx });
}

/** Rewrites `fields` of every document of `type`, in `_id` order, a batch per transaction. */
async function rebuildType(store: Store, type: TypeModel, fields: TokenField[]): Promise<number> {
  const collection = store.collection(storedCollectionOf(type));
  let rewritten = 0;
  let after: string | undefined;
  for (;;) {
    const batch = await store.transaction(async (tx) => {
      const documents = await collection.find(after === undefined ? {} : { _id: { $gt: after } }, { sort: { _id: 1 }, limit: BATCH_SIZE }, { tx });
      if (documents.length > 0) await rewriteBatch(store, collection, documents, fields, tx);
      return documents;
    });
    if (batch.length === 0) return rewritten;
    rewritten += batch.length;
    after = batch[batch.length - 1]!._id;
  }
}

/** Brings the stored tokens of `model`'s term and fulltext fields up to the current tokeniser. */
export async function syncTextTokens(store: Store, model: SchemaModel): Promise<TextTokenRebuild> {
  const wanted = wantedTokenFields(model);
  const marker = await readMarker(store);
  const built = new Set(marker?.version === TEXT_TOKENS_VERSION ? marker.fields : []);
  const keyOf = (type: TypeModel, field: TokenField): string => `${storedCollectionOf(type)}.${field.derived}`;
  const result: TextTokenRebuild = { rebuilt: [], documents: 0 };
  for (const [type, fields] of wanted) {
    const stale = fields.filter((field) => !built.has(keyOf(type, field)));
    if (stale.length === 0) continue;
    result.documents += await rebuildType(store, type, stale);
    result.rebuilt.push(...stale.map((field) => keyOf(type, field)));
  }
  const wantedKeys = [...wanted].flatMap(([type, fields]) => fields.map((field) => keyOf(type, field))).sort();
  const recorded = marker?.version === TEXT_TOKENS_VERSION ? [...marker.fields].sort() : undefined;
  if (JSON.stringify(recorded) !== JSON.stringify(wantedKeys)) await saveMarker(store, wantedKeys);
  return result;
}
