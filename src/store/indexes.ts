import type { FieldModel, SchemaModel, SearchIndex, TypeModel } from '../sdl/model.js';
import type { IndexSpec } from './port.js';

/** Every index the service creates starts with this; `syncIndexes` leaves other indexes alone. */
export const INDEX_PREFIX = 'ag_';

/** Search indexes answered by comparing the stored value itself (eq/in/le/lt/ge/gt/between). */
const VALUE_COMPARED: ReadonlySet<SearchIndex> = new Set<SearchIndex>([
  'hash', 'exact', 'int', 'int64', 'float', 'bool', 'day', 'month', 'year', 'hour',
]);

/**
 * The indexes each collection needs for `model`, keyed by collection (= object type name). Every object
 * type has an entry, possibly empty, so syncing drops indexes a field no longer wants.
 *
 * - `@id` field: unique sparse `ag_id_<field>` (sparse: objects without the value do not collide).
 * - value-compared `@search` (hash, exact, int, float, datetime, bool): ascending `ag_search_<field>`.
 * - `term` / `fulltext`: ascending on the derived arrays, `ag_term_<field>` / `ag_fulltext_<field>`.
 * - relation stored on this side: ascending `ag_rel_<field>`, used to derive the inverse side.
 * `trigram` and `regexp` get none: an unanchored regular expression cannot use a B-tree index.
 */
export function indexesFor(model: SchemaModel): Map<string, IndexSpec[]> {
  const byCollection = new Map<string, IndexSpec[]>();
  for (const type of model.types.values()) {
    if (type.kind === 'type') {
      byCollection.set(type.name, indexesForType(type));
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

/** The ID field is `_id` (indexed by the store itself); external and computed fields are not stored here. */
function isStored(field: FieldModel): boolean {
  return !field.isIdField && !field.external && !field.lambda && field.custom === undefined;
}

function indexesForField(field: FieldModel): IndexSpec[] {
  const specs: IndexSpec[] = [];
  if (field.of.kind === 'relation') {
    if (field.storedHere) {
      specs.push({ name: `${INDEX_PREFIX}rel_${field.name}`, keys: { [field.name]: 1 } });
    }
    return specs;
  }
  if (field.isUniqueId) {
    specs.push({ name: `${INDEX_PREFIX}id_${field.name}`, keys: { [field.name]: 1 }, unique: true, sparse: true });
  } else if (field.search.some((index) => VALUE_COMPARED.has(index))) {
    specs.push({ name: `${INDEX_PREFIX}search_${field.name}`, keys: { [field.name]: 1 } });
  }
  if (field.search.includes('term')) {
    specs.push({ name: `${INDEX_PREFIX}term_${field.name}`, keys: { [`_term_${field.name}`]: 1 } });
  }
  if (field.search.includes('fulltext')) {
    specs.push({ name: `${INDEX_PREFIX}fulltext_${field.name}`, keys: { [`_fulltext_${field.name}`]: 1 } });
  }
  return specs;
}
