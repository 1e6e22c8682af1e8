import { isKeptHere } from '../../src/sdl/facts.js';
import type { SchemaModel } from '../../src/sdl/model.js';
import type { Store, StoredDocument } from '../../src/store/port.js';

/**
 * The compatibility suite's data set (its COMPATIBILITY.md, "Expected Data Sets"), as Autograph stores it:
 * one collection per type, `_id` the object's identity, a relation as the related ids. It is written
 * through the Store port because the suite fixes the ids of owned types (`apollo-federation`), which
 * `addProduct` generates.
 */
export const COMPATIBILITY_DATA: Readonly<Record<string, readonly StoredDocument[]>> = {
  Product: [
    { _id: 'apollo-federation', sku: 'federation', package: '@apollo/federation', variation: 'OSS' },
    { _id: 'apollo-studio', sku: 'studio', package: '', variation: 'platform' },
  ],
  ProductVariation: [{ _id: 'OSS' }, { _id: 'platform' }],
  ProductDimension: [{ _id: 'dimension', size: 'small', weight: 1, unit: 'kg' }],
  CaseStudy: [
    { _id: '1234', description: 'Federation Study' },
    { _id: '1235', description: 'Studio Study' },
  ],
  ProductResearch: [
    { _id: 'research-1234', study: '1234' },
    { _id: 'research-1235', study: '1235' },
  ],
  DeprecatedProduct: [{ _id: 'apollo-federation-v1', sku: 'apollo-federation-v1', package: '@apollo/federation-v1', reason: 'Migrate to Federation V2' }],
  User: [{ _id: 'support@apollographql.com', name: 'Jane Smith', totalProductsCreated: 1337 }],
  Inventory: [{ _id: 'apollo-oss', deprecatedProducts: ['apollo-federation-v1'] }],
};

/**
 * Writes the data set for the types of `model`, each document cut to what the schema keeps here: a
 * Federation 1 schema that leaves `User.name` to its owner stores no copy of it.
 */
export async function seedCompatibilityData(store: Store, model: SchemaModel): Promise<void> {
  for (const [typeName, documents] of Object.entries(COMPATIBILITY_DATA)) {
    const type = model.types.get(typeName);
    if (!type) continue;
    const kept = (name: string) => {
      const field = type.fieldsByName.get(name);
      return field !== undefined && isKeptHere(model, type, field);
    };
    const stored = documents.map((document) => Object.fromEntries(Object.entries(document).filter(([name]) => name === '_id' || kept(name))) as StoredDocument);
    await store.collection(typeName).insertMany(stored);
  }
}
