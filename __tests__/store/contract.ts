/**
 * The Store contract: behaviour every backend must show, written against the port only and limited to what
 * MongoDB itself does, so the same suite runs on the embedded store and on a real MongoDB.
 *
 * `open` opens the store under test (each test gets its own collections, so a shared database is fine);
 * `reopen`, when given, opens the same data again after the suite has closed the store from `open`.
 */
import { DeadlineExceededError, DuplicateKeyError, type IndexSpec, type PerKeyPage, type Store, type StoredDocument, type StoreChange } from '../../src/store/port.js';
import { until } from '../helpers/wait.js';

let collectionCounter = 0;
const runId = Math.random().toString(36).slice(2, 8);

/** A collection name no other test (or earlier run against the same database) uses. */
function freshName(base: string): string {
  collectionCounter += 1;
  return `${base}_${runId}_${collectionCounter}`;
}

const ids = (documents: Array<Record<string, unknown>>): unknown[] => documents.map((document) => document._id);

const BOOKS: StoredDocument[] = [
  { _id: 'b1', title: 'Alpha', rank: 2, tags: ['sci', 'space'], author: 'a1', reviews: [{ stars: 5, by: 'x' }, { stars: 2, by: 'y' }] },
  { _id: 'b2', title: 'beta', rank: 1, tags: ['sci'], author: 'a2', reviews: [{ stars: 3, by: 'x' }] },
  { _id: 'b3', title: 'Gamma', tags: ['poetry'], author: 'a1', reviews: [] },
  { _id: 'b4', title: 'delta', rank: 1, tags: ['space', 'sci', 'poetry'], meta: { pages: 300 } },
  { _id: 'b5', title: 'Epsilon', rank: 3, tags: [], meta: { pages: 120 } },
];

export function describeStoreContract(label: string, open: () => Promise<Store>, reopen?: () => Promise<Store>): void {
  describe(`Store contract: ${label}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await store.close();
    });

    async function seedBooks(): Promise<string> {
      const name = freshName('Book');
      await store.collection(name).insertMany(BOOKS.map((book) => structuredClone(book)));
      return name;
    }

    describe('find', () => {
      it('returns inserted documents and finds them by _id and by $in on _id', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        expect(await books.find({ _id: 'b3' })).toEqual([{ _id: 'b3', title: 'Gamma', tags: ['poetry'], author: 'a1', reviews: [] }]);
        expect(ids(await books.find({ _id: { $in: ['b5', 'b1', 'missing'] } }, { sort: { _id: 1 } }))).toEqual(['b1', 'b5']);
        expect(await books.find({ _id: 'missing' })).toEqual([]);
        expect(await books.find({}, { sort: { _id: 1 } })).toHaveLength(5);
      });

      it('evaluates comparison, set, regex, array and existence operators', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        const query = async (filter: Record<string, unknown>) => ids(await books.find(filter, { sort: { _id: 1 } }));

        expect(await query({ rank: { $in: [1, 3] } })).toEqual(['b2', 'b4', 'b5']);
        expect(await query({ rank: { $nin: [1, 3] } })).toEqual(['b1', 'b3']);
        expect(await query({ rank: { $gt: 1, $lte: 3 } })).toEqual(['b1', 'b5']);
        expect(await query({ rank: { $ne: 1 } })).toEqual(['b1', 'b3', 'b5']);
        expect(await query({ title: { $regex: '^[a-d]' } })).toEqual(['b2', 'b4']);
        expect(await query({ title: { $regex: '^[a-d]', $options: 'i' } })).toEqual(['b1', 'b2', 'b4']);
        expect(await query({ tags: 'space' })).toEqual(['b1', 'b4']);
        expect(await query({ tags: { $all: ['sci', 'space'] } })).toEqual(['b1', 'b4']);
        expect(await query({ tags: { $size: 0 } })).toEqual(['b5']);
        expect(await query({ reviews: { $elemMatch: { stars: { $gte: 3 }, by: 'x' } } })).toEqual(['b1', 'b2']);
        expect(await query({ reviews: { $elemMatch: { stars: 2, by: 'x' } } })).toEqual([]);
        expect(await query({ 'reviews.by': 'y' })).toEqual(['b1']);
        expect(await query({ 'meta.pages': { $gte: 200 } })).toEqual(['b4']);
        expect(await query({ rank: { $exists: false } })).toEqual(['b3']);
        expect(await query({ meta: { $exists: true } })).toEqual(['b4', 'b5']);
        expect(await query({ rank: null })).toEqual(['b3']);
      });

      it('combines conditions with $and, $or, $nor and $not', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        const query = async (filter: Record<string, unknown>) => ids(await books.find(filter, { sort: { _id: 1 } }));

        expect(await query({ $and: [{ tags: 'sci' }, { rank: 1 }] })).toEqual(['b2', 'b4']);
        expect(await query({ $or: [{ author: 'a2' }, { rank: 3 }] })).toEqual(['b2', 'b5']);
        expect(await query({ $nor: [{ tags: 'sci' }, { rank: 3 }] })).toEqual(['b3']);
        expect(await query({ title: { $not: { $regex: '^[A-Z]' } } })).toEqual(['b2', 'b4']);
        expect(await query({ author: 'a1', $or: [{ rank: 2 }, { rank: { $exists: false } }] })).toEqual(['b1', 'b3']);
      });

      it('sorts like MongoDB, except that missing fields come last in both directions (Dgraph\'s order); later keys break ties', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        expect(ids(await books.find({}, { sort: { rank: 1, _id: 1 } }))).toEqual(['b2', 'b4', 'b1', 'b5', 'b3']);
        expect(ids(await books.find({}, { sort: { rank: -1, _id: -1 } }))).toEqual(['b5', 'b1', 'b4', 'b2', 'b3']);
        expect(ids(await books.find({}, { sort: { rank: 1, title: -1 } }))).toEqual(['b4', 'b2', 'b1', 'b5', 'b3']);
        expect(ids(await books.find({}, { sort: { author: 1, _id: 1 } }))).toEqual(['b1', 'b3', 'b2', 'b4', 'b5']);
      });

      it('sorts array fields by their smallest element ascending and their largest descending', async () => {
        const name = freshName('ArraySort');
        const collection = store.collection(name);
        await collection.insertMany([
          { _id: 'wide', scores: [1, 9] },
          { _id: 'low', scores: [2, 3] },
          { _id: 'single', scores: 5 },
          { _id: 'none' },
        ]);
        expect(ids(await collection.find({}, { sort: { scores: 1, _id: 1 } }))).toEqual(['wide', 'low', 'single', 'none']);
        expect(ids(await collection.find({}, { sort: { scores: -1, _id: 1 } }))).toEqual(['wide', 'single', 'low', 'none']);
      });

      it('orders values of different types numbers < strings < booleans, null last', async () => {
        const name = freshName('MixedSort');
        const collection = store.collection(name);
        await collection.insertMany([
          { _id: 'bool', v: false },
          { _id: 'str', v: '10' },
          { _id: 'num', v: 10 },
          { _id: 'null', v: null },
        ]);
        expect(ids(await collection.find({}, { sort: { v: 1 } }))).toEqual(['num', 'str', 'bool', 'null']);
      });

      it('pages an ascending sort with nulls last across the objects with a value and those without', async () => {
        const name = freshName('NullsLastPages');
        const collection = store.collection(name);
        await collection.insertMany([
          { _id: 'a', rank: 3, done: true },
          { _id: 'b', rank: null, done: true },
          { _id: 'c', rank: 1, done: true },
          { _id: 'd', done: true },
          { _id: 'e', rank: 2, done: false },
          { _id: 'f', rank: 1, done: true },
        ]);
        const page = async (skip: number, limit: number) =>
          ids(await collection.find({ done: true }, { sort: { rank: 1, _id: 1 }, skip, limit, projection: { rank: 1 } }));
        expect(await page(0, 0)).toEqual(['c', 'f', 'a', 'b', 'd']);
        expect(await page(0, 2)).toEqual(['c', 'f']);
        expect(await page(2, 2)).toEqual(['a', 'b']);
        expect(await page(3, 5)).toEqual(['b', 'd']);
        expect(await page(4, 5)).toEqual(['d']);
        expect(await page(5, 5)).toEqual([]);
        expect(await collection.find({ done: true }, { sort: { rank: 1, _id: -1 }, skip: 3, projection: { rank: 1 } })).toEqual([{ _id: 'd' }, { _id: 'b', rank: null }]);
      });

      it('pages with skip and limit after sorting and filtering', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        expect(ids(await books.find({}, { sort: { _id: 1 }, skip: 1, limit: 2 }))).toEqual(['b2', 'b3']);
        expect(ids(await books.find({ tags: 'sci' }, { sort: { _id: -1 }, limit: 2 }))).toEqual(['b4', 'b2']);
        expect(ids(await books.find({}, { sort: { _id: 1 }, skip: 4, limit: 10 }))).toEqual(['b5']);
        expect(await books.find({}, { sort: { _id: 1 }, skip: 10 })).toEqual([]);
      });

      it('projects included fields and always returns _id', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        expect(await books.find({ _id: { $in: ['b1', 'b3'] } }, { sort: { _id: 1 }, projection: { title: 1, rank: 1 } })).toEqual([
          { _id: 'b1', title: 'Alpha', rank: 2 },
          { _id: 'b3', title: 'Gamma' },
        ]);
        expect(await books.find({ _id: 'b4' }, { projection: { 'meta.pages': 1 } })).toEqual([{ _id: 'b4', meta: { pages: 300 } }]);
        expect(await books.find({ _id: { $in: ['b1', 'b3'] } }, { sort: { _id: 1 }, projection: { 'reviews.stars': 1, 'meta.pages': 1 } })).toEqual([
          { _id: 'b1', reviews: [{ stars: 5 }, { stars: 2 }] },
          { _id: 'b3', reviews: [] },
        ]);
      });

      it('counts matching documents', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        expect(await books.count({})).toBe(5);
        expect(await books.count({ tags: 'sci' })).toBe(3);
        expect(await books.count({ _id: 'nope' })).toBe(0);
        expect(await store.collection(freshName('Empty')).count({})).toBe(0);
      });

      it('hands out copies: changing a result or an inserted object does not change the store', async () => {
        const name = freshName('Copy');
        const collection = store.collection(name);
        const input: StoredDocument = { _id: 'c1', nested: { list: [1, 2] }, title: 'original' };
        await collection.insertMany([input]);
        (input.nested as { list: number[] }).list.push(99);
        input.title = 'changed input';

        const [first] = await collection.find({ _id: 'c1' });
        (first!.nested as { list: number[] }).list.push(3);
        first!.title = 'changed result';
        const [aggregated] = await collection.aggregate([{ $match: { _id: 'c1' } }]);
        (aggregated!.nested as { list: number[] }).list.length = 0;

        expect(await collection.find({ _id: 'c1' })).toEqual([{ _id: 'c1', nested: { list: [1, 2] }, title: 'original' }]);
      });
    });

    describe('aggregate', () => {
      it('runs $match, $group and $sort', async () => {
        const name = await seedBooks();
        const result = await store.collection(name).aggregate([
          { $match: { tags: 'sci' } },
          { $sort: { _id: 1 } },
          { $group: { _id: '$rank', count: { $sum: 1 }, titles: { $push: '$title' } } },
          { $sort: { _id: 1 } },
        ]);
        expect(result).toEqual([
          { _id: 1, count: 2, titles: ['beta', 'delta'] },
          { _id: 2, count: 1, titles: ['Alpha'] },
        ]);
      });

      it('computes min, max, avg and count over the whole collection', async () => {
        const name = await seedBooks();
        const [summary] = await store.collection(name).aggregate([
          { $group: { _id: null, min: { $min: '$rank' }, max: { $max: '$rank' }, avg: { $avg: '$rank' }, count: { $sum: 1 } } },
        ]);
        expect(summary).toEqual({ _id: null, min: 1, max: 3, avg: 1.75, count: 5 });
      });

      it('joins another collection with $lookup (equality and pipeline forms) and $unwind', async () => {
        const bookName = await seedBooks();
        const authorName = freshName('Author');
        await store.collection(authorName).insertMany([
          { _id: 'a1', name: 'Ann' },
          { _id: 'a2', name: 'Bob' },
          { _id: 'a3', name: 'Cid' },
        ]);

        const withAuthor = await store.collection(bookName).aggregate([
          { $match: { author: { $exists: true } } },
          { $lookup: { from: authorName, localField: 'author', foreignField: '_id', as: 'writer' } },
          { $unwind: '$writer' },
          { $project: { _id: 1, name: '$writer.name' } },
          { $sort: { _id: 1 } },
        ]);
        expect(withAuthor).toEqual([
          { _id: 'b1', name: 'Ann' },
          { _id: 'b2', name: 'Bob' },
          { _id: 'b3', name: 'Ann' },
        ]);

        const authorsWithBooks = await store.collection(authorName).aggregate([
          { $lookup: { from: bookName, localField: '_id', foreignField: 'author', as: 'books' } },
          { $project: { _id: 1, bookCount: { $size: '$books' } } },
          { $sort: { _id: 1 } },
        ]);
        expect(authorsWithBooks).toEqual([
          { _id: 'a1', bookCount: 2 },
          { _id: 'a2', bookCount: 1 },
          { _id: 'a3', bookCount: 0 },
        ]);

        const rankedBooks = await store.collection(authorName).aggregate([
          {
            $lookup: {
              from: bookName,
              let: { authorId: '$_id' },
              pipeline: [{ $match: { $expr: { $and: [{ $eq: ['$author', '$$authorId'] }, { $gte: ['$rank', 2] }] } } }],
              as: 'ranked',
            },
          },
          { $match: { 'ranked.0': { $exists: true } } },
          { $project: { _id: 1 } },
        ]);
        expect(rankedBooks).toEqual([{ _id: 'a1' }]);
      });
    });

    describe('findPerKey', () => {
      /** The generic way: one `find` per key. */
      async function findEachKey(name: string, field: string, keys: string[], filter: Record<string, unknown>, page: PerKeyPage) {
        const pages = new Map<string, StoredDocument[]>();
        for (const key of new Set(keys)) pages.set(key, await store.collection(name).find({ $and: [filter, { [field]: key }] }, page));
        return pages;
      }

      it('gives each key its page of matching documents, in order, with every key present', async () => {
        const name = await seedBooks();
        const pages = await store.collection(name).findPerKey('author', ['a1', 'a2', 'nobody', 'a1'], {}, { sort: { title: -1 } });
        expect([...pages.keys()]).toEqual(['a1', 'a2', 'nobody']);
        expect(Object.fromEntries([...pages].map(([key, documents]) => [key, ids(documents)]))).toEqual({ a1: ['b3', 'b1'], a2: ['b2'], nobody: [] });
        expect(pages.get('a2')).toEqual([BOOKS[1]]);
      });

      it('matches a key held in an array field, and skips and limits per key', async () => {
        const name = await seedBooks();
        const pages = await store.collection(name).findPerKey('tags', ['sci', 'poetry', 'space'], { rank: { $gte: 1 } }, { sort: { rank: 1, _id: 1 }, skip: 1, limit: 1 });
        expect(Object.fromEntries([...pages].map(([key, documents]) => [key, ids(documents)]))).toEqual({ sci: ['b4'], poetry: [], space: ['b1'] });
      });

      it.each([
        ['no index', false, true],
        ['an index on the field', true, true],
        // Natural order is then not _id order, which the embedded store otherwise reads pages in.
        ['no index, ids created in descending order', false, false],
        ['an index on the field, ids created in descending order', true, false],
      ])('gives what one find per key gives (%s)', async (_label, indexed, ascendingIds) => {
        const name = await seedBooks();
        const more: StoredDocument[] = Array.from({ length: 30 }, (_, i) => ({ _id: `m${String(ascendingIds ? i : 29 - i).padStart(2, '0')}`, title: `T${(i * 7) % 30}`, rank: i % 4, author: `a${i % 3}`, tags: i % 2 ? ['sci'] : ['space', 'sci'] }));
        await store.collection(name).insertMany(more);
        if (indexed) {
          await store.syncIndexes(name, [{ name: 'test_author', keys: { author: 1 } }, { name: 'test_tags', keys: { tags: 1 } }], 'test_');
        }
        const cases: Array<[string, string[], Record<string, unknown>, PerKeyPage]> = [
          ['author', ['a0', 'a1', 'a2', 'a3'], {}, { sort: { _id: 1 } }],
          ['author', ['a1', 'a2'], { rank: { $in: [1, 3] } }, { sort: { title: 1, _id: 1 }, limit: 3 }],
          ['author', ['a0', 'a2'], { title: { $regex: '^T1' } }, { sort: { rank: -1, _id: 1 }, skip: 2, limit: 2 }],
          ['author', ['a0'], { $or: [{ rank: 0 }, { tags: 'space' }] }, { sort: { title: -1, _id: 1 }, skip: 20 }],
          ['tags', ['sci', 'space', 'poetry'], { rank: { $ne: 2 } }, { sort: { rank: 1, title: 1, _id: 1 }, skip: 1, limit: 4 }],
          ['_id', ['m01', 'm02', 'b1', 'zz'], { rank: { $gte: 1 } }, { sort: { _id: 1 } }],
          ['author', ['a0', 'a1'], { rank: { $gte: 1 } }, { sort: { _id: -1 }, skip: 1, limit: 3 }],
          ['tags', ['space', 'sci'], {}, { sort: { _id: 1 }, skip: 3, limit: 5 }],
          ['author', ['a0', 'a1', 'a2'], { rank: { $ne: 0 } }, { sort: { _id: 1 }, limit: 2 }],
          ['tags', ['sci', 'space'], { rank: { $in: [0, 3] } }, { sort: { _id: -1 }, skip: 2, limit: 1 }],
          ['author', ['a2', 'a1'], { rank: { $lt: 3 } }, { skip: 1, limit: 4 }],
          // Projected: sorted and filtered by fields the projection leaves out.
          ['author', ['a0', 'a1', 'a2'], { rank: { $ne: 0 } }, { sort: { _id: 1 }, limit: 2, projection: { title: 1 } }],
          ['author', ['a1', 'a2'], { tags: 'sci' }, { sort: { rank: -1, title: 1, _id: 1 }, skip: 1, limit: 3, projection: { title: 1, tags: 1 } }],
          ['tags', ['sci', 'space'], {}, { sort: { _id: -1 }, skip: 2, limit: 3, projection: { author: 1 } }],
          ['_id', ['m01', 'm02', 'b1', 'zz'], {}, { sort: { _id: 1 }, projection: { rank: 1 } }],
          ['author', ['a0'], { rank: { $gte: 1 } }, { sort: { title: 1, _id: 1 }, projection: { missing: 1 } }],
        ];
        for (const [field, keys, filter, page] of cases) {
          const perKey = await store.collection(name).findPerKey(field, keys, filter, page);
          expect(perKey).toEqual(await findEachKey(name, field, keys, filter, page));
        }
      });

      it('returns only the projected fields and _id, leaving the stored documents whole', async () => {
        const name = await seedBooks();
        const pages = await store.collection(name).findPerKey('author', ['a1', 'a2'], {}, { sort: { _id: 1 }, projection: { title: 1, tags: 1 } });
        expect(Object.fromEntries(pages)).toEqual({
          a1: [{ _id: 'b1', title: BOOKS[0]!.title, tags: BOOKS[0]!.tags }, { _id: 'b3', title: BOOKS[2]!.title, tags: BOOKS[2]!.tags }],
          a2: [{ _id: 'b2', title: BOOKS[1]!.title, tags: BOOKS[1]!.tags }],
        });
        expect(await store.collection(name).find({ _id: 'b1' })).toEqual([BOOKS[0]]);
      });

      it('sees the writes of its own transaction', async () => {
        const name = await seedBooks();
        await store.transaction(async (tx) => {
          const books = store.collection(name);
          await books.insertMany([{ _id: 'b6', title: 'Zeta', author: 'a2' }], { tx });
          await books.updateMany({ _id: 'b2' }, { $set: { author: 'a1' } }, { tx });
          const pages = await books.findPerKey('author', ['a1', 'a2'], {}, { sort: { _id: 1 } }, { tx });
          expect(Object.fromEntries([...pages].map(([key, documents]) => [key, ids(documents)]))).toEqual({ a1: ['b1', 'b2', 'b3'], a2: ['b6'] });
        });
      });
    });

    describe('updateMany and deleteMany', () => {
      it('applies $set, $unset, $inc, $push, $addToSet and $pull, counting matched and modified', async () => {
        const name = await seedBooks();
        const books = store.collection(name);

        expect(await books.updateMany({ tags: 'sci' }, { $set: { genre: 'science' }, $inc: { rank: 10 } })).toEqual({ matched: 3, modified: 3 });
        expect(await books.updateMany({ _id: 'b1' }, { $unset: { author: '' }, $push: { tags: 'new' } })).toEqual({ matched: 1, modified: 1 });
        expect(await books.updateMany({ _id: { $in: ['b1', 'b2'] } }, { $addToSet: { tags: 'sci' } })).toEqual({ matched: 2, modified: 0 });
        expect(await books.updateMany({ _id: 'b4' }, { $pull: { tags: 'space' } })).toEqual({ matched: 1, modified: 1 });
        expect(await books.updateMany({ _id: 'none' }, { $set: { x: 1 } })).toEqual({ matched: 0, modified: 0 });

        const [b1, b2, b3, b4] = await books.find({ _id: { $in: ['b1', 'b2', 'b3', 'b4'] } }, { sort: { _id: 1 } });
        expect(b1).toMatchObject({ genre: 'science', rank: 12, tags: ['sci', 'space', 'new'] });
        expect(b1).not.toHaveProperty('author');
        expect(b2).toMatchObject({ genre: 'science', rank: 11, tags: ['sci'] });
        expect(b3).not.toHaveProperty('genre');
        expect(b4!.tags).toEqual(['sci', 'poetry']);
      });

      it('finds updated documents through their new values', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        await books.updateMany({ _id: 'b5' }, { $set: { author: 'a9' } });
        expect(ids(await books.find({ author: 'a9' }))).toEqual(['b5']);
        await books.updateMany({ author: 'a9' }, { $unset: { author: '' } });
        expect(await books.find({ author: 'a9' })).toEqual([]);
      });

      it('deletes matching documents and returns how many', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        expect(await books.deleteMany({ tags: 'poetry' })).toBe(2);
        expect(await books.deleteMany({ tags: 'poetry' })).toBe(0);
        expect(ids(await books.find({}, { sort: { _id: 1 } }))).toEqual(['b1', 'b2', 'b5']);
        await books.insertMany([{ _id: 'b3', title: 'again' }]);
        expect(await books.find({ _id: 'b3' })).toEqual([{ _id: 'b3', title: 'again' }]);
      });
    });

    describe('unique keys and indexes', () => {
      it('rejects a duplicate _id and writes nothing of the batch', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        const attempt = books.insertMany([{ _id: 'n1' }, { _id: 'b2', title: 'dup' }, { _id: 'n2' }]);
        await expect(attempt).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(books.insertMany([{ _id: 'n1' }, { _id: 'b2' }])).rejects.toMatchObject({ collection: name, field: '_id', value: 'b2' });
        expect(await books.count({ _id: { $in: ['n1', 'n2'] } })).toBe(0);
        expect(await books.find({ _id: 'b2' })).toMatchObject([{ title: 'beta' }]);
      });

      it('rejects a duplicate _id when the ids were created in ascending order (the last one, a repeat in the batch)', async () => {
        const name = freshName('Ascending');
        const items = store.collection(name);
        await items.insertMany([{ _id: 'a1' }, { _id: 'a2' }]);
        await expect(items.insertMany([{ _id: 'a2' }])).rejects.toMatchObject({ name: 'DuplicateKeyError', field: '_id', value: 'a2' });
        await expect(items.insertMany([{ _id: 'a3' }, { _id: 'a3' }])).rejects.toMatchObject({ name: 'DuplicateKeyError', field: '_id', value: 'a3' });
        await expect(items.insertMany([{ _id: 'a3' }, { _id: 'a1' }])).rejects.toMatchObject({ name: 'DuplicateKeyError', field: '_id', value: 'a1' });
        await items.insertMany([{ _id: 'a3' }, { _id: 'a4' }]);
        expect(ids(await items.find({}, { sort: { _id: 1 } }))).toEqual(['a1', 'a2', 'a3', 'a4']);
      });

      it('enforces a unique sparse index on insert and update, all or nothing', async () => {
        const name = freshName('Unique');
        const items = store.collection(name);
        await store.syncIndexes(name, [byCode], 'ag_');
        await items.insertMany([{ _id: 'i1', code: 'A' }, { _id: 'i2', code: 'B' }, { _id: 'i3' }, { _id: 'i4' }]);

        await expect(items.insertMany([{ _id: 'i5', code: 'C' }, { _id: 'i6', code: 'A' }])).rejects.toMatchObject({
          name: 'DuplicateKeyError',
          collection: name,
          field: 'code',
          value: 'A',
        });
        expect(await items.count({ _id: { $in: ['i5', 'i6'] } })).toBe(0);

        await expect(items.updateMany({ _id: 'i2' }, { $set: { code: 'A' } })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(ids(await items.find({ code: { $exists: true } }, { sort: { _id: 1 } }))).toEqual(['i1', 'i2']);
        expect(await items.find({ code: 'B' })).toEqual([{ _id: 'i2', code: 'B' }]);
        // Two documents updated to the same value collide with each other (MongoDB may keep the first).
        await expect(items.updateMany({ _id: { $in: ['i3', 'i4'] } }, { $set: { code: 'Z' } })).rejects.toBeInstanceOf(DuplicateKeyError);

        // A value freed by an update or a delete can be taken again.
        await items.updateMany({ _id: 'i1' }, { $set: { code: 'A2' } });
        await items.insertMany([{ _id: 'i7', code: 'A' }]);
        await items.deleteMany({ _id: 'i2' });
        await items.updateMany({ _id: 'i3' }, { $set: { code: 'B' } });
        expect(ids(await items.find({ code: { $in: ['A', 'B', 'A2'] } }, { sort: { code: 1 } }))).toEqual(['i7', 'i1', 'i3']);
      });

      it('treats a missing field as null in a unique index that is not sparse', async () => {
        const name = freshName('Dense');
        await store.syncIndexes(name, [{ name: 'ag_dense', keys: { code: 1 }, unique: true }], 'ag_');
        const items = store.collection(name);
        await items.insertMany([{ _id: 'd1' }]);
        await expect(items.insertMany([{ _id: 'd2' }])).rejects.toBeInstanceOf(DuplicateKeyError);
      });

      it('creates missing and drops obsolete indexes with the prefix, leaving others alone', async () => {
        const name = freshName('Indexed');
        const byTitle: IndexSpec = { name: 'ag_search_title', keys: { title: 1 } };
        expect(await store.syncIndexes(name, [byCode, byTitle], 'ag_')).toEqual({
          created: ['ag_id_code', 'ag_search_title'],
          dropped: [],
        });
        expect(await store.syncIndexes(name, [byCode, byTitle], 'ag_')).toEqual({ created: [], dropped: [] });
        await store.syncIndexes(name, [{ name: 'other_rank', keys: { rank: -1 } }], 'other_');

        expect(await store.syncIndexes(name, [byTitle], 'ag_')).toEqual({ created: [], dropped: ['ag_id_code'] });
        expect(await listedIndexes(store, name)).toEqual([
          normalized(byTitle),
          normalized({ name: 'other_rank', keys: { rank: -1 } }),
        ]);

        // The dropped unique index no longer constrains writes.
        await store.collection(name).insertMany([{ _id: 'x1', code: 'A' }, { _id: 'x2', code: 'A' }]);
        expect(await store.collection(name).count({ code: 'A' })).toBe(2);
      });

      it('refuses to create a unique index over duplicate data and creates nothing', async () => {
        const name = freshName('Dupes');
        await store.collection(name).insertMany([{ _id: 'p1', code: 'A' }, { _id: 'p2', code: 'A' }]);
        await expect(store.syncIndexes(name, [byCode], 'ag_')).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await store.listIndexes(name)).map((spec) => spec.name)).not.toContain('ag_id_code');
      });
    });

    describe('dropCollection', () => {
      it('removes the documents and every index, answers whether the collection existed, and leaves others alone', async () => {
        const name = await seedBooks();
        const other = await seedBooks();
        await store.syncIndexes(name, [byCode], 'ag_');
        await store.syncIndexes(name, [{ name: 'other_rank', keys: { rank: -1 } }], 'other_');

        expect(await store.dropCollection(name)).toBe(true);
        expect(await store.collection(name).find({})).toEqual([]);
        expect(await store.collection(name).count({})).toBe(0);
        expect(await store.listIndexes(name)).toEqual([]);
        const snapshot = await store.openSnapshot();
        expect(snapshot.collections.map((collection) => collection.name)).not.toContain(name);
        await snapshot.close();
        expect(await store.dropCollection(name)).toBe(false);
        expect(await store.collection(other).count({})).toBe(BOOKS.length);

        // Written again, it starts empty and without the dropped unique index.
        await store.collection(name).insertMany([{ _id: 'b1', code: 'A' }, { _id: 'n2', code: 'A' }]);
        expect(ids(await store.collection(name).find({}, { sort: { _id: 1 } }))).toEqual(['b1', 'n2']);
      });

      it('answers false for a collection that was never created', async () => {
        expect(await store.dropCollection(freshName('Never'))).toBe(false);
      });
    });

    describe('transactions', () => {
      it('commits all writes of a successful transaction and returns its result', async () => {
        const a = freshName('TxA');
        const b = freshName('TxB');
        await store.collection(a).insertMany([{ _id: 'old', n: 1 }]);
        const result = await store.transaction(async (tx) => {
          await store.collection(a).insertMany([{ _id: 'new', n: 2 }], { tx });
          await store.collection(a).updateMany({ _id: 'old' }, { $inc: { n: 10 } }, { tx });
          await store.collection(b).insertMany([{ _id: 'link', to: 'new' }], { tx });
          return 'done';
        });
        expect(result).toBe('done');
        expect(await store.collection(a).find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'new', n: 2 },
          { _id: 'old', n: 11 },
        ]);
        expect(await store.collection(b).count({})).toBe(1);
      });

      it('lets operations with the handle see the transaction’s own writes', async () => {
        const name = freshName('TxSee');
        await store.transaction(async (tx) => {
          const collection = store.collection(name);
          await collection.insertMany([{ _id: 't1', v: 1 }], { tx });
          await collection.updateMany({ _id: 't1' }, { $set: { v: 2 } }, { tx });
          expect(await collection.find({ _id: 't1' }, {}, { tx })).toEqual([{ _id: 't1', v: 2 }]);
          expect(await collection.count({ v: 2 }, { tx })).toBe(1);
          expect(await collection.aggregate([{ $match: { v: 2 } }], { tx })).toEqual([{ _id: 't1', v: 2 }]);
        });
      });

      it('rolls back inserts, updates and deletes in every collection when the work throws', async () => {
        const a = freshName('RbA');
        const b = freshName('RbB');
        await store.syncIndexes(a, [byCode], 'ag_');
        await store.collection(a).insertMany([{ _id: 'keep', code: 'K', n: 1 }, { _id: 'gone', code: 'G' }]);
        await store.collection(b).insertMany([{ _id: 'b', n: 1 }]);

        const failure = new Error('work failed');
        await expect(
          store.transaction(async (tx) => {
            await store.collection(a).insertMany([{ _id: 'added', code: 'G2' }], { tx });
            await store.collection(a).updateMany({ _id: 'keep' }, { $set: { code: 'K2' }, $inc: { n: 1 } }, { tx });
            await store.collection(a).deleteMany({ _id: 'gone' }, { tx });
            await store.collection(b).updateMany({}, { $set: { n: 2 } }, { tx });
            throw failure;
          }),
        ).rejects.toBe(failure);

        expect(await store.collection(a).find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'gone', code: 'G' },
          { _id: 'keep', code: 'K', n: 1 },
        ]);
        expect(await store.collection(b).find({})).toEqual([{ _id: 'b', n: 1 }]);
        // The unique index is back to the committed keys: K is taken, K2 and G2 are free.
        await expect(store.collection(a).insertMany([{ _id: 'k', code: 'K' }])).rejects.toBeInstanceOf(DuplicateKeyError);
        await store.collection(a).insertMany([{ _id: 'k2', code: 'K2' }, { _id: 'g2', code: 'G2' }]);
      });

      it('rolls back when a write inside the transaction fails', async () => {
        const name = freshName('RbDup');
        await store.collection(name).insertMany([{ _id: 'taken' }]);
        await expect(
          store.transaction(async (tx) => {
            await store.collection(name).insertMany([{ _id: 'first' }], { tx });
            await store.collection(name).insertMany([{ _id: 'taken' }], { tx });
          }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(ids(await store.collection(name).find({}))).toEqual(['taken']);
      });
    });

    describe('openSnapshot', () => {
      it('lists the collection with its count and indexes, and yields each document once, in batches of at most the size asked', async () => {
        const name = await seedBooks();
        await store.syncIndexes(name, [byCode], 'ag_');
        const snapshot = await store.openSnapshot();
        try {
          expect(['point-in-time', 'per-document']).toContain(snapshot.consistency);
          const names = snapshot.collections.map((collection) => collection.name);
          expect(names).toEqual([...names].sort());
          const info = snapshot.collections.find((collection) => collection.name === name);
          expect({ count: info?.count, indexes: info?.indexes.map(normalized) }).toEqual({ count: 5, indexes: [normalized(byCode)] });
          const batches: StoredDocument[][] = [];
          for await (const batch of snapshot.documents(name, 2)) batches.push(batch);
          expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
          expect(batches.flat().sort((a, b) => a._id.localeCompare(b._id))).toEqual(BOOKS);
        } finally {
          await snapshot.close();
        }
      });

      it('lists collections sorted by name, whatever the order they were created in', async () => {
        const base = freshName('Order');
        const created = [`${base}_m`, `${base}_Z`, `${base}_a`, `${base}_b`];
        for (const [i, name] of created.entries()) await store.collection(name).insertMany([{ _id: `d${i}` }]);
        const snapshot = await store.openSnapshot();
        try {
          const listed = snapshot.collections.map((collection) => collection.name).filter((name) => name.startsWith(`${base}_`));
          expect(listed).toEqual([`${base}_Z`, `${base}_a`, `${base}_b`, `${base}_m`]);
          for (const name of created) {
            const read: StoredDocument[] = [];
            for await (const batch of snapshot.documents(name, 10)) read.push(...batch);
            expect(read).toEqual([{ _id: `d${created.indexOf(name)}` }]);
          }
        } finally {
          await snapshot.close();
        }
      });

      it('point-in-time: writes made after it was opened do not show; per-document: documents read after the writes show them', async () => {
        const name = await seedBooks();
        const snapshot = await store.openSnapshot();
        try {
          await store.collection(name).insertMany([{ _id: 'b6', title: 'Zeta' }]);
          await store.collection(name).deleteMany({ _id: 'b1' });
          await store.collection(name).updateMany({ _id: 'b2' }, { $set: { title: 'changed' } });
          const read: StoredDocument[] = [];
          for await (const batch of snapshot.documents(name, 10)) read.push(...batch);
          const expected = snapshot.consistency === 'point-in-time' ? BOOKS : undefined;
          if (expected) expect(read.sort((a, b) => a._id.localeCompare(b._id))).toEqual(expected);
          else expect(read.map((document) => document._id).sort()).toEqual(['b2', 'b3', 'b4', 'b5', 'b6']);
        } finally {
          await snapshot.close();
        }
      });
    });

    describe('deadlines', () => {
      const passed = () => ({ deadline: Date.now() - 1 });
      const ahead = () => ({ deadline: Date.now() + 60_000 });

      it('refuses every operation whose deadline has passed, naming the operation, and writes nothing', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        const refusals: Array<[string, () => Promise<unknown>]> = [
          [`find on ${name}`, () => books.find({ rank: 1 }, {}, passed())],
          [`count on ${name}`, () => books.count({ rank: 1 }, passed())],
          [`aggregate on ${name}`, () => books.aggregate([{ $match: { rank: 1 } }], passed())],
          [`insertMany into ${name}`, () => books.insertMany([{ _id: 'late' }], passed())],
          [`updateMany on ${name}`, () => books.updateMany({}, { $set: { rank: 9 } }, passed())],
          [`deleteMany on ${name}`, () => books.deleteMany({}, passed())],
        ];
        for (const [operation, call] of refusals) {
          await expect(call()).rejects.toEqual(new DeadlineExceededError(operation));
        }
        expect(await books.find({}, { sort: { _id: 1 } })).toEqual(BOOKS);
      });

      it('answers as without a deadline while the deadline is ahead', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        expect(ids(await books.find({ tags: 'sci' }, { sort: { _id: -1 }, limit: 2 }, ahead()))).toEqual(['b4', 'b2']);
        expect(await books.count({ tags: 'sci' }, ahead())).toBe(3);
        expect(await books.aggregate([{ $match: { author: 'a1' } }, { $count: 'n' }], ahead())).toEqual([{ n: 2 }]);
        expect(await books.updateMany({ _id: 'b5' }, { $set: { rank: 4 } }, ahead())).toEqual({ matched: 1, modified: 1 });
        expect(await books.deleteMany({ _id: 'b3' }, ahead())).toBe(1);
        await books.insertMany([{ _id: 'b6' }], ahead());
        expect(ids(await books.find({}, { sort: { _id: 1 } }))).toEqual(['b1', 'b2', 'b4', 'b5', 'b6']);
      });

      it('rolls back the whole transaction when one of its writes is past its deadline', async () => {
        const name = await seedBooks();
        const books = store.collection(name);
        await expect(
          store.transaction(async (tx) => {
            await books.updateMany({ _id: 'b1' }, { $set: { rank: 7 } }, { tx });
            await books.insertMany([{ _id: 'b9' }], { tx });
            await books.deleteMany({ _id: 'b2' }, { tx, deadline: Date.now() - 1 });
          }),
        ).rejects.toEqual(new DeadlineExceededError(`deleteMany on ${name}`));
        expect(await books.find({}, { sort: { _id: 1 } })).toEqual(BOOKS);
      });
    });

    describe('change feed', () => {
      /** Every collection the feed names, in the order heard; `settled` writes a marker and waits to hear it. */
      async function watching(): Promise<{ heard: string[]; changes: StoreChange[]; settled(): Promise<void>; stop(): void }> {
        const heard: string[] = [];
        const changes: StoreChange[] = [];
        const stop = store.watchChanges((change) => {
          changes.push(change);
          heard.push(...change.collections);
        });
        // A marker write heard proves the feed runs (a change stream opens in the background) and that
        // everything written before it was heard, since the feed tells writes in commit order.
        const settled = async () => {
          const marker = freshName('Marker');
          await store.collection(marker).insertMany([{ _id: 'm' }]);
          await until(() => heard.includes(marker));
        };
        await settled();
        return { heard, changes, settled, stop };
      }

      it('names the collection of each insert, update and delete after it is written', async () => {
        const feed = await watching();
        const [inserted, updated, deleted] = [freshName('FeedIns'), freshName('FeedUpd'), freshName('FeedDel')];
        await store.collection(inserted).insertMany([{ _id: 'a', n: 1 }]);
        await until(() => feed.heard.includes(inserted));
        await store.collection(updated).insertMany([{ _id: 'u', n: 1 }]);
        await store.collection(deleted).insertMany([{ _id: 'd', n: 1 }]);
        await feed.settled();
        feed.heard.length = 0;
        await store.collection(updated).updateMany({ _id: 'u' }, { $set: { n: 2 } });
        await store.collection(deleted).deleteMany({ _id: 'd' });
        await feed.settled();
        expect(feed.heard.filter((name) => !name.startsWith('Marker'))).toEqual([updated, deleted]);
        expect(feed.changes.every((change) => new Set(change.collections).size === change.collections.length)).toBe(true);
        feed.stop();
      });

      it('names every collection a committed transaction wrote to', async () => {
        const feed = await watching();
        const [a, b] = [freshName('FeedTxA'), freshName('FeedTxB')];
        await store.transaction(async (tx) => {
          await store.collection(a).insertMany([{ _id: 'x' }], { tx });
          await store.collection(b).insertMany([{ _id: 'y' }], { tx });
          await store.collection(a).updateMany({ _id: 'x' }, { $set: { n: 1 } }, { tx });
        });
        await until(() => feed.heard.includes(a) && feed.heard.includes(b));
        feed.stop();
      });

      it('says nothing of a rolled-back transaction or of a write that changed nothing', async () => {
        const feed = await watching();
        const [rolledBack, unchanged] = [freshName('FeedRb'), freshName('FeedSame')];
        await store.collection(unchanged).insertMany([{ _id: 's', n: 1 }]);
        await feed.settled();
        feed.heard.length = 0;
        await expect(
          store.transaction(async (tx) => {
            await store.collection(rolledBack).insertMany([{ _id: 'gone' }], { tx });
            throw new Error('work failed');
          }),
        ).rejects.toThrow('work failed');
        expect(await store.collection(unchanged).updateMany({ _id: 'missing' }, { $set: { n: 2 } })).toEqual({ matched: 0, modified: 0 });
        expect(await store.collection(unchanged).deleteMany({ _id: 'missing' })).toBe(0);
        await feed.settled();
        expect(feed.heard.filter((name) => !name.startsWith('Marker'))).toEqual([]);
        feed.stop();
      });

      it('names a dropped collection, and says nothing of dropping one that does not exist', async () => {
        const feed = await watching();
        const [dropped, missing] = [freshName('FeedDrop'), freshName('FeedMissing')];
        await store.collection(dropped).insertMany([{ _id: 'd' }]);
        await feed.settled();
        feed.heard.length = 0;
        await store.dropCollection(dropped);
        await store.dropCollection(missing);
        await feed.settled();
        expect(feed.heard.filter((name) => !name.startsWith('Marker'))).toEqual([dropped]);
        feed.stop();
      });

      it('stops telling a listener once it is stopped, and keeps telling the others', async () => {
        const first = await watching();
        const second = await watching();
        first.stop();
        const name = freshName('FeedStop');
        first.heard.length = 0;
        await store.collection(name).insertMany([{ _id: 'z' }]);
        await until(() => second.heard.includes(name));
        await second.settled();
        expect(first.heard).toEqual([]);
        second.stop();
      });
    });

    if (reopen) {
      describe('durability', () => {
        it('keeps data and indexes across close and reopen', async () => {
          const name = freshName('Durable');
          await store.syncIndexes(name, [byCode], 'ag_');
          const collection = store.collection(name);
          await collection.insertMany([{ _id: 'r1', code: 'A', list: [1] }, { _id: 'r2', code: 'B' }]);
          await collection.updateMany({ _id: 'r1' }, { $push: { list: 2 } });
          await collection.deleteMany({ _id: 'r2' });
          await store.transaction(async (tx) => {
            await collection.insertMany([{ _id: 'r3', code: 'C' }], { tx });
          });
          await store.close();

          store = await reopen();
          const reopened = store.collection(name);
          expect(await reopened.find({}, { sort: { _id: 1 } })).toEqual([
            { _id: 'r1', code: 'A', list: [1, 2] },
            { _id: 'r3', code: 'C' },
          ]);
          expect(await listedIndexes(store, name)).toEqual([normalized(byCode)]);
          await expect(reopened.insertMany([{ _id: 'r4', code: 'C' }])).rejects.toBeInstanceOf(DuplicateKeyError);
        });

        it('keeps a dropped collection gone across close and reopen', async () => {
          const [dropped, kept] = [freshName('Dropped'), freshName('Kept')];
          await store.syncIndexes(dropped, [byCode], 'ag_');
          await store.collection(dropped).insertMany([{ _id: 'g1', code: 'A' }]);
          await store.collection(kept).insertMany([{ _id: 'k1' }]);
          expect(await store.dropCollection(dropped)).toBe(true);
          await store.close();

          store = await reopen();
          expect(await store.collection(dropped).find({})).toEqual([]);
          expect(await store.listIndexes(dropped)).toEqual([]);
          expect(await store.collection(kept).find({})).toEqual([{ _id: 'k1' }]);
          expect(await store.dropCollection(dropped)).toBe(false);
        });
      });
    }
  });
}

/** The kind of index the service creates for an `@id` field. */
const byCode: IndexSpec = { name: 'ag_id_code', keys: { code: 1 }, unique: true, sparse: true };

/** Index specs compared by meaning: backends may or may not spell out `unique: false`. */
function normalized(spec: IndexSpec): IndexSpec {
  return { name: spec.name, keys: spec.keys, unique: spec.unique === true, sparse: spec.sparse === true };
}

async function listedIndexes(store: Store, collection: string): Promise<IndexSpec[]> {
  return (await store.listIndexes(collection))
    .filter((spec) => spec.name !== '_id_')
    .map(normalized)
    .sort((a, b) => a.name.localeCompare(b.name));
}
