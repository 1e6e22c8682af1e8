/**
 * Unique indexes of the wire test server through the real driver: which documents collide (sparse,
 * partialFilterExpression, missing fields, arrays, compound keys) and the E11000 replies, as mongod shapes them.
 */
import { MongoServerError, type Document } from 'mongodb';

/** Documents with numeric and string `_id`s, as the driver's default typing (ObjectId) does not allow them. */
type Item = { _id: string | number; [field: string]: unknown };
import { useWireMongo } from './fixture';

const wire = useWireMongo();

interface Case {
  name: string;
  index: Document;
  stored: Document[];
  inserted: Document;
  /** The `keyValue` of the expected E11000, or null when the insert is accepted. */
  duplicate: Document | null;
}

const CASES: Case[] = [
  { name: 'equal values collide', index: { key: { code: 1 }, unique: true }, stored: [{ _id: 1, code: 'A' }], inserted: { _id: 2, code: 'A' }, duplicate: { code: 'A' } },
  { name: 'values differing in case do not', index: { key: { code: 1 }, unique: true }, stored: [{ _id: 1, code: 'A' }], inserted: { _id: 2, code: 'a' }, duplicate: null },
  { name: 'a number and its string do not', index: { key: { code: 1 }, unique: true }, stored: [{ _id: 1, code: 1 }], inserted: { _id: 2, code: '1' }, duplicate: null },
  { name: 'two missing fields collide as null', index: { key: { code: 1 }, unique: true }, stored: [{ _id: 1 }], inserted: { _id: 2 }, duplicate: { code: null } },
  { name: 'a missing field and an explicit null collide', index: { key: { code: 1 }, unique: true }, stored: [{ _id: 1 }], inserted: { _id: 2, code: null }, duplicate: { code: null } },
  { name: 'sparse: two missing fields do not', index: { key: { code: 1 }, unique: true, sparse: true }, stored: [{ _id: 1 }], inserted: { _id: 2 }, duplicate: null },
  { name: 'sparse: two explicit nulls do', index: { key: { code: 1 }, unique: true, sparse: true }, stored: [{ _id: 1, code: null }], inserted: { _id: 2, code: null }, duplicate: { code: null } },
  {
    name: 'partial ($type string): two explicit nulls do not',
    index: { key: { code: 1 }, unique: true, partialFilterExpression: { code: { $type: 'string' } } },
    stored: [{ _id: 1, code: null }],
    inserted: { _id: 2, code: null },
    duplicate: null,
  },
  {
    name: 'partial ($type string): equal strings do',
    index: { key: { code: 1 }, unique: true, partialFilterExpression: { code: { $type: 'string' } } },
    stored: [{ _id: 1, code: 'A' }],
    inserted: { _id: 2, code: 'A' },
    duplicate: { code: 'A' },
  },
  { name: 'an array element equal to a stored value collides', index: { key: { tags: 1 }, unique: true }, stored: [{ _id: 1, tags: ['x', 'y'] }], inserted: { _id: 2, tags: 'y' }, duplicate: { tags: 'y' } },
  { name: 'compound: equal in every field collides', index: { key: { a: 1, b: 1 }, unique: true }, stored: [{ _id: 1, a: 1, b: 'x' }], inserted: { _id: 2, a: 1, b: 'x' }, duplicate: { a: 1, b: 'x' } },
  { name: 'compound: equal in one field does not', index: { key: { a: 1, b: 1 }, unique: true }, stored: [{ _id: 1, a: 1, b: 'x' }], inserted: { _id: 2, a: 1, b: 'y' }, duplicate: null },
  { name: 'a non-unique index never refuses', index: { key: { code: 1 } }, stored: [{ _id: 1, code: 'A' }], inserted: { _id: 2, code: 'A' }, duplicate: null },
];

describe.each(CASES)('unique index: $name', ({ index, stored, inserted, duplicate }) => {
  test('the insert command answers as mongod', async () => {
    const db = wire.db();
    await db.command({ createIndexes: 'items', indexes: [{ name: 'ix', ...index }] });
    await db.command({ insert: 'items', documents: stored });
    const reply = await db.command({ insert: 'items', documents: [inserted] });
    if (duplicate === null) {
      expect(reply).toEqual({ n: 1, ok: 1 });
      return;
    }
    const printed = Object.entries(duplicate).map(([field, value]) => `${field}: ${JSON.stringify(value)}`).join(', ');
    expect(reply).toEqual({
      n: 0,
      writeErrors: [
        {
          index: 0,
          code: 11000,
          errmsg: `E11000 duplicate key error collection: ${db.databaseName}.items index: ix dup key: { ${printed} }`,
          keyPattern: index.key,
          keyValue: duplicate,
        },
      ],
      ok: 1,
    });
    expect(await db.collection('items').countDocuments()).toBe(stored.length);
  });
});

describe('duplicate keys through the driver', () => {
  test('a duplicate _id is refused with the _id_ index named, and the stored document is kept', async () => {
    const items = wire.db().collection<Item>('items');
    await items.insertOne({ _id: 'a', title: 'first' } );
    const error = await items.insertOne({ _id: 'a', title: 'second' } ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 11000, keyPattern: { _id: 1 }, keyValue: { _id: 'a' } });
    expect((error as MongoServerError).message).toBe(`E11000 duplicate key error collection: ${items.dbName}.items index: _id_ dup key: { _id: "a" }`);
    expect(await items.find().toArray()).toEqual([{ _id: 'a', title: 'first' }]);
  });

  test('an ordered insertMany stops at the duplicate: earlier documents stay, later ones are not written', async () => {
    const items = wire.db().collection<Item>('items');
    await items.insertOne({ _id: 'b' } );
    const error = await items.insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'MongoBulkWriteError', code: 11000, writeErrors: [expect.objectContaining({ index: 1, code: 11000 })] });
    expect((await items.find().toArray()).map((document) => document._id)).toEqual(['b', 'a']);
  });

  test('an update taking a value another document holds is refused and changes nothing', async () => {
    const db = wire.db();
    const items = db.collection<Item>('items');
    await items.createIndex({ code: 1 }, { unique: true, name: 'by_code' });
    await items.insertMany([{ _id: 1, code: 'A' }, { _id: 2, code: 'B' }]);
    const error = await items.updateOne({ _id: 2 }, { $set: { code: 'A' } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 11000, keyPattern: { code: 1 }, keyValue: { code: 'A' } });
    expect(await items.find({}, { sort: { _id: 1 } }).toArray()).toEqual([{ _id: 1, code: 'A' }, { _id: 2, code: 'B' }]);
  });

  test('findAndModify answers a duplicate with a command error carrying keyPattern and keyValue', async () => {
    const db = wire.db();
    await db.collection('items').createIndex({ code: 1 }, { unique: true, name: 'by_code' });
    await db.collection('items').insertMany([{ code: 'A' }, { code: 'B' }]);
    const error = await db.collection('items').findOneAndUpdate({ code: 'B' }, { $set: { code: 'A' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 11000, codeName: 'DuplicateKey', keyPattern: { code: 1 }, keyValue: { code: 'A' } });
  });

  test('a unique index over duplicate data is not built, and the error names the key', async () => {
    const db = wire.db();
    await db.collection('items').insertMany([{ code: 'A' }, { code: 'A' }]);
    const error = await db.collection('items').createIndex({ code: 1 }, { unique: true, name: 'by_code' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 11000, keyPattern: { code: 1 }, keyValue: { code: 'A' } });
    expect((error as Error).message).toMatch(/^Index build failed: .* :: caused by :: E11000 duplicate key error collection: wire_test_\d+\.items index: by_code dup key: \{ code: "A" \}$/);
    expect((await db.collection('items').listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
  });

  test('a value freed by an update or a delete can be taken again', async () => {
    const items = wire.db().collection<Item>('items');
    await items.createIndex({ code: 1 }, { unique: true, name: 'by_code' });
    await items.insertMany([{ _id: 1, code: 'A' }, { _id: 2, code: 'B' }]);
    await items.updateOne({ _id: 1 }, { $set: { code: 'C' } });
    await items.deleteOne({ _id: 2 });
    await items.insertMany([{ _id: 3, code: 'A' }, { _id: 4, code: 'B' }]);
    expect(await items.countDocuments()).toBe(3);
  });
});
