import { keyLookupOf } from '../../src/resolve/entity-keys';
import type { KeyModel } from '../../src/sdl/model';
import { f, schemaModel } from '../query/fixtures';

/** A `@key` as a store lookup: representation in → batch value and filter out. */

const model = schemaModel([
  {
    name: 'Product',
    key: 'id',
    fields: [
      f('id', 'ID!'), f('sku', 'String'), f('package', 'String'), f('size', 'Int64'), f('released', 'DateTime'),
      f('active', 'Boolean'), f('variation', 'Variation', { storedHere: true }),
    ],
  },
  { name: 'Variation', fields: [f('id', 'ID!')] },
  { name: 'User', key: 'email', extended: true, fields: [f('email', 'String!', { isUniqueId: true, external: true })] },
]);

const key = (fields: string, selection: KeyModel['selection']): KeyModel => ({ fields, selection, resolvable: true });
const ID = key('id', [{ name: 'id' }]);
const SKU_PACKAGE = key('sku package', [{ name: 'sku' }, { name: 'package' }]);
const SKU_VARIATION = key('sku variation { id }', [{ name: 'sku' }, { name: 'variation', selections: [{ name: 'id' }] }]);

describe('the value of a representation', () => {
  const cases: Array<[string, string, KeyModel, Record<string, unknown>, string | undefined]> = [
    ['the ID', 'Product', ID, { id: 'p1' }, '["p1"]'],
    ['a numeric ID as a string', 'Product', ID, { id: 7 }, '["7"]'],
    ['a composite key', 'Product', SKU_PACKAGE, { sku: 'federation', package: '@apollo/federation' }, '["federation","@apollo/federation"]'],
    ['a composite key missing a part', 'Product', SKU_PACKAGE, { sku: 'federation' }, undefined],
    ['a null part', 'Product', SKU_PACKAGE, { sku: 'federation', package: null }, undefined],
    ['a nested key', 'Product', SKU_VARIATION, { sku: 'studio', variation: { id: 'platform' } }, '["studio","platform"]'],
    ['a nested key whose object is missing', 'Product', SKU_VARIATION, { sku: 'studio', variation: 'platform' }, undefined],
    ['an Int64 given as a string', 'Product', key('size', [{ name: 'size' }]), { size: '42' }, '[42]'],
    ['an Int64 that is no number', 'Product', key('size', [{ name: 'size' }]), { size: 'big' }, undefined],
    ['a DateTime in another offset', 'Product', key('released', [{ name: 'released' }]), { released: '2026-01-31T13:00:00+01:00' }, '["2026-01-31T12:00:00.000Z"]'],
    ['a Boolean given as a string', 'Product', key('active', [{ name: 'active' }]), { active: 'true' }, undefined],
    ['an extended type by its @id key', 'User', key('email', [{ name: 'email' }]), { email: 'ada@example.com' }, '["ada@example.com"]'],
  ];
  test.each(cases)('%s', (_name, typeName, keyModel, representation, expected) => {
    expect(keyLookupOf(model.types.get(typeName)!, keyModel).valueOf(representation)).toBe(expected);
  });
});

describe('the filter for a batch, and the value of a stored document', () => {
  const cases: Array<[string, string, KeyModel, string[], Record<string, unknown>]> = [
    ['the ID reads _id', 'Product', ID, ['["p1"]', '["p2"]'], { _id: { $in: ['p1', 'p2'] } }],
    ['a composite key: one $or branch per value', 'Product', SKU_PACKAGE, ['["a","x"]', '["b","y"]'], {
      $or: [{ sku: 'a', package: 'x' }, { sku: 'b', package: 'y' }],
    }],
    ['a nested key reads the stored relation id', 'Product', SKU_VARIATION, ['["studio","platform"]'], { $or: [{ sku: 'studio', variation: 'platform' }] }],
    ['an extended type\'s identity key reads _id', 'User', key('email', [{ name: 'email' }]), ['["ada@example.com"]'], { _id: { $in: ['ada@example.com'] } }],
  ];
  test.each(cases)('%s', (_name, typeName, keyModel, values, filter) => {
    expect(keyLookupOf(model.types.get(typeName)!, keyModel).filterFor(values)).toEqual(filter);
  });

  test('a stored document gives the same value as its representation', () => {
    const lookup = keyLookupOf(model.types.get('Product')!, SKU_VARIATION);
    const document = { _id: 'p1', sku: 'studio', package: '', variation: 'platform' };
    expect(lookup.valueOfDocument(document)).toBe(lookup.valueOf({ sku: 'studio', variation: { id: 'platform' } }));
  });

  test('the identity key is marked; a composite key is not', () => {
    const product = model.types.get('Product')!;
    expect(keyLookupOf(product, ID).isIdentity).toBe(true);
    expect(keyLookupOf(product, SKU_PACKAGE).isIdentity).toBe(false);
  });
});
