import { storedCollectionOf } from '../sdl/facts.js';
import type { FieldModel, SchemaModel, SearchIndex, TypeModel } from '../sdl/model.js';
import { storedPath } from '../query/schema-facts.js';
import { TOKEN_INDEXES } from '../query/text-index.js';
import type { IndexSpec } from './port.js';

/** Every index the service creates starts with this; `syncIndexes` leaves other indexes alone. */
export const INDEX_PREFIX = 'ag_';

/** Search indexes answered by comparing the stored value itself (eq/in/le/lt/ge/gt/between). */
const VALUE_COMPARED: ReadonlySet<SearchIndex> = new Set<SearchIndex>([
  'hash', 'exact', 'int', 'int64', 'float', 'bool', 'day', 'month', 'year', 'hour',
]);

/**
 * The indexes each collection needs for `model`, keyed by collection (the object type's stored name).
 * Fields are named by their stored names (sdl/storage-names.ts), in the index names too, so renaming a
 * GraphQL field over the same stored data keeps its indexes. Every object
 * type has an entry, possibly empty, so syncing drops indexes a field no longer wants.
 *
 * - `@id` field: unique `ag_unique_<field>` over the documents whose field holds a value of the field's
 *   type (`partialFilterExpression`, so objects without the value, or with an explicit null, do not
 *   collide; it replaces the `unique + sparse` form `ag_id_<field>` of earlier versions).
 *
 * A name stands for one definition: an index whose definition changes gets a new name, so a schema
 * activation creates the new index before it drops the old one and is never without the unique index.
 * - value-compared `@search` (hash, exact, int, float, datetime, bool): ascending `ag_search_<field>`.
 * - `term` / `fulltext` / `ngram`: ascending on the derived token arrays (multikey), `ag_term_<field>`,
 *   `ag_fulltext_<field>`, `ag_ngram_<field>`.
 * - relation stored on this side: ascending `ag_rel_<field>`, used to derive the inverse side.
 * `trigram` and `regexp` get none: an unanchored regular expression cannot use a B-tree index.
 */
export function indexesFor(model: SchemaModel): Map<string, IndexSpec[]> {
  const byCollection = new Map<string, IndexSpec[]>();
  for (const type of model.types.values()) {
    if (type.kind === 'type') {
      byCollection.set(storedCollectionOf(type), indexesForType(type));
    }
  }
  return byCollection;
}

function indexesForType(type: TypeModel): IndexSpec[] {
  const specs: IndexSpec[] = [];
  for (const field of type.fields) {
    if (!isStored(field)) {
      continue;
    }
    specs.push(...indexesForField(field));
  }
  return specs;
}

/**
 * The ID field is `_id` (indexed by the store itself); external and computed fields are not stored here,
 * nor is a language preference (`p@.`), which reads the values of other fields.
 */
function isStored(field: FieldModel): boolean {
  return !field.isIdField && !field.external && !field.lambda && field.custom === undefined && !field.languagePreference;
}

function indexesForField(field: FieldModel): IndexSpec[] {
  const specs: IndexSpec[] = [];
  const path = storedPath(field);
  if (field.of.kind === 'relation') {
    if (field.storedHere) {
      specs.push({ name: `${INDEX_PREFIX}rel_${path}`, keys: { [path]: 1 } });
    }
    return specs;
  }
  if (field.isUniqueId) {
    specs.push(uniqueIdIndex(field));
  } else if (field.search.some((index) => VALUE_COMPARED.has(index))) {
    specs.push({ name: `${INDEX_PREFIX}search_${path}`, keys: { [path]: 1 } });
  }
  for (const { index, fieldName } of TOKEN_INDEXES) {
    if (field.search.includes(index)) specs.push({ name: `${INDEX_PREFIX}${index}_${path}`, keys: { [fieldName(path)]: 1 } });
  }
  return specs;
}

/** The BSON type an `@id` field's values have: `number` (MongoDB's alias for int, long and double) or `string`. */
function storedTypeOf(field: FieldModel): 'number' | 'string' {
  return field.of.kind === 'scalar' && (field.of.scalar === 'Int' || field.of.scalar === 'Int64') ? 'number' : 'string';
}

function uniqueIdIndex(field: FieldModel): IndexSpec {
  const path = storedPath(field);
  return {
    name: `${INDEX_PREFIX}unique_${path}`,
    keys: { [path]: 1 },
    unique: true,
    partialFilterExpression: { [path]: { $type: storedTypeOf(field) } },
  };
}
