import { BLOG_SCHEMA, BLOG_SEED } from './schemas';
import { pluck, useService } from './harness';

/** Reads over relations (nested filter/order/first/offset, `has` on derived relations), every aggregate, page limits. */

const api = useService(BLOG_SCHEMA);

beforeAll(async () => {
  const seeded = await api.data(BLOG_SEED);
  expect(seeded.addAuthor.numUids).toBe(12);
});

test('a derived list relation takes filter, order, first and offset', async () => {
  const result = await api.data(`{
    getAuthor(handle: "ann") {
      all: posts(order: { desc: likes }) { slug }
      page: posts(filter: { likes: { ge: 5 } }, order: { desc: likes }, first: 2, offset: 1) { slug }
      recent: posts(order: { desc: published }, first: 1) { slug }
      none: posts(first: 0) { slug }
    }
  }`);
  expect(pluck(result.getAuthor.all, 'slug')).toEqual(['p3', 'p1', 'p4', 'p2']);
  expect(pluck(result.getAuthor.page, 'slug')).toEqual(['p1', 'p4']);
  expect(pluck(result.getAuthor.recent, 'slug')).toEqual(['p4']);
  expect(result.getAuthor.none).toEqual([]);
});

test('a stored list relation takes filter, order, first and offset, per parent', async () => {
  const result = await api.data(`{
    queryPost(order: { asc: slug }) {
      slug
      tags(order: { desc: name }) { name }
      firstTag: tags(order: { asc: name }, first: 1) { name }
      secondTag: tags(order: { asc: name }, first: 1, offset: 1) { name }
      notGo: tags(filter: { not: { name: { eq: "go" } } }) { name }
    }
  }`);
  expect(result.queryPost).toEqual([
    { slug: 'p1', tags: [{ name: 'go' }], firstTag: [{ name: 'go' }], secondTag: [], notGo: [] },
    { slug: 'p2', tags: [{ name: 'ts' }, { name: 'go' }], firstTag: [{ name: 'go' }], secondTag: [{ name: 'ts' }], notGo: [{ name: 'ts' }] },
    { slug: 'p3', tags: [{ name: 'ts' }], firstTag: [{ name: 'ts' }], secondTag: [], notGo: [{ name: 'ts' }] },
    { slug: 'p4', tags: [{ name: 'go' }, { name: 'db' }], firstTag: [{ name: 'db' }], secondTag: [{ name: 'go' }], notGo: [{ name: 'db' }] },
    { slug: 'p5', tags: [{ name: 'db' }], firstTag: [{ name: 'db' }], secondTag: [], notGo: [{ name: 'db' }] },
  ]);
});

test('a derived many-to-many side pages per parent, three levels deep', async () => {
  const result = await api.data(`{
    queryTag(order: { asc: name }) {
      name
      posts(filter: { score: { ge: 3 } }, order: { asc: score }, first: 2) { slug author { handle } }
    }
  }`);
  expect(result.queryTag).toEqual([
    { name: 'db', posts: [{ slug: 'p5', author: { handle: 'bob' } }] },
    { name: 'go', posts: [{ slug: 'p2', author: { handle: 'ann' } }, { slug: 'p1', author: { handle: 'ann' } }] },
    { name: 'ts', posts: [{ slug: 'p2', author: { handle: 'ann' } }, { slug: 'p3', author: { handle: 'ann' } }] },
  ]);
});

test('a single relation takes a filter: a related object that does not match is null', async () => {
  const result = await api.data(`{
    queryPost(filter: { slug: { in: ["p1", "p5"] } }, order: { asc: slug }) { slug author(filter: { age: { gt: 30 } }) { handle } }
  }`);
  expect(result.queryPost).toEqual([{ slug: 'p1', author: { handle: 'ann' } }, { slug: 'p5', author: null }]);
});

test('has on stored and on derived relations, single and list', async () => {
  const handles = async (filter: string) => pluck(await api.data(`{ queryAuthor(filter: ${filter}, order: { asc: handle }) { handle } }`).then((r) => r.queryAuthor), 'handle');
  expect(await handles('{ has: posts }')).toEqual(['ann', 'bob']);
  expect(await handles('{ not: { has: posts } }')).toEqual(['cy']);
  expect(await handles('{ has: [posts, profile] }')).toEqual(['ann']);
  expect(await handles('{ has: email }')).toEqual(['ann']);
  expect(await handles('{ or: [{ has: profile }, { age: { gt: 50 } }] }')).toEqual(['ann', 'cy']);

  const tags = await api.data(`{ queryTag(filter: { has: posts }, order: { asc: name }) { name } }`);
  expect(pluck(tags.queryTag, 'name')).toEqual(['db', 'go', 'ts']);
  const owned = await api.data(`{ queryProfile(filter: { has: owner }) { bio owner { handle } } }`);
  expect(owned.queryProfile).toEqual([{ bio: 'writes about Go', owner: { handle: 'ann' } }]);
  const posts = await api.data(`{ queryPost(filter: { has: author, title: { anyofterms: "database databases" } }, order: { asc: slug }) { slug } }`);
  expect(pluck(posts.queryPost, 'slug')).toEqual(['p4', 'p5']);
});

test('aggregateT: count, Min/Max of every orderable field, Sum/Avg of numbers, with and without a filter', async () => {
  const result = await api.data(`{
    all: aggregatePost {
      count slugMin slugMax titleMin titleMax scoreMin scoreMax scoreSum scoreAvg
      likesMin likesMax likesSum likesAvg viewsMin viewsMax viewsSum viewsAvg publishedMin publishedMax
    }
    popular: aggregatePost(filter: { likes: { ge: 10 } }) { count likesSum likesAvg scoreMin publishedMax }
    nothing: aggregatePost(filter: { likes: { gt: 1000 } }) { count likesSum likesAvg scoreMin publishedMax }
    authors: aggregateAuthor { count ageAvg nameMin handleMax }
  }`);
  expect(result.all).toEqual({
    count: 5, slugMin: 'p1', slugMax: 'p5', titleMin: 'Database joins', titleMax: 'TypeScript types',
    scoreMin: 2, scoreMax: 5, scoreSum: 18.5, scoreAvg: 3.7,
    likesMin: 3, likesMax: 25, likesSum: 57, likesAvg: 11.4,
    viewsMin: 300, viewsMax: 2500, viewsSum: 5700, viewsAvg: 1140,
    publishedMin: '2024-01-10T00:00:00Z', publishedMax: '2024-05-10T00:00:00Z',
  });
  expect(result.popular).toEqual({ count: 3, likesSum: 47, likesAvg: 47 / 3, scoreMin: 4, publishedMax: '2024-05-10T00:00:00Z' });
  expect(result.nothing).toEqual({ count: 0, likesSum: null, likesAvg: null, scoreMin: null, publishedMax: null });
  expect(result.authors).toEqual({ count: 3, ageAvg: 113 / 3, nameMin: 'Ann', handleMax: 'cy' });
});

test('<relation>Aggregate on derived and stored list relations, with a filter', async () => {
  const result = await api.data(`{
    queryAuthor(order: { asc: handle }) {
      handle
      postsAggregate { count likesSum likesAvg scoreMax publishedMin titleMax }
      goodPosts: postsAggregate(filter: { score: { ge: 4 } }) { count likesMin }
    }
    queryPost(filter: { slug: { in: ["p2", "p3"] } }, order: { asc: slug }) {
      slug
      tagsAggregate { count nameMin nameMax }
    }
    getTag(name: "go") { postsAggregate { count viewsSum } newer: postsAggregate(filter: { published: { gt: "2024-01-31T00:00:00Z" } }) { count } }
  }`);
  expect(result.queryAuthor).toEqual([
    { handle: 'ann', postsAggregate: { count: 4, likesSum: 45, likesAvg: 11.25, scoreMax: 5, publishedMin: '2024-01-10T00:00:00Z', titleMax: 'TypeScript types' }, goodPosts: { count: 2, likesMin: 10 } },
    { handle: 'bob', postsAggregate: { count: 1, likesSum: 12, likesAvg: 12, scoreMax: 4, publishedMin: '2024-05-10T00:00:00Z', titleMax: 'Database joins' }, goodPosts: { count: 1, likesMin: 12 } },
    { handle: 'cy', postsAggregate: { count: 0, likesSum: null, likesAvg: null, scoreMax: null, publishedMin: null, titleMax: null }, goodPosts: { count: 0, likesMin: null } },
  ]);
  expect(result.queryPost).toEqual([
    { slug: 'p2', tagsAggregate: { count: 2, nameMin: 'go', nameMax: 'ts' } },
    { slug: 'p3', tagsAggregate: { count: 1, nameMin: 'ts', nameMax: 'ts' } },
  ]);
  expect(result.getTag).toEqual({ postsAggregate: { count: 3, viewsSum: 2000 }, newer: { count: 2 } });
});

test('getT by every @id field, by id, and exactly one key at a time', async () => {
  const { getAuthor: byHandle } = await api.data(`{ getAuthor(handle: "ann") { id handle email } }`);
  const byEmail = await api.data(`{ getAuthor(email: "ann@example.com") { handle } }`);
  const byId = await api.data(`query($id: ID) { getAuthor(id: $id) { handle } }`, { id: byHandle.id });
  expect([byEmail.getAuthor.handle, byId.getAuthor.handle]).toEqual(['ann', 'ann']);
  const tag = await api.data(`{ getTag(name: "ts") { name posts(order: { asc: slug }) { slug } } }`);
  expect(tag.getTag).toEqual({ name: 'ts', posts: [{ slug: 'p2' }, { slug: 'p3' }] });
  const post = await api.data(`{ getPost(slug: "p5") { title author { handle } } }`);
  expect(post.getPost).toEqual({ title: 'Database joins', author: { handle: 'bob' } });
  const missing = await api.data(`{ getAuthor(email: "nobody@example.com") { handle } getTag(name: "rust") { name } }`);
  expect(missing).toEqual({ getAuthor: null, getTag: null });

  expect(await api.errors(`{ getAuthor(handle: "ann", email: "ann@example.com") { handle } }`)).toEqual([
    { code: 'BAD_USER_INPUT', message: 'getAuthor takes exactly one of id, handle, email; got 2' },
  ]);
  expect(await api.errors(`{ getAuthor { handle } }`)).toEqual([{ code: 'BAD_USER_INPUT', message: 'getAuthor takes exactly one of id, handle, email; got 0' }]);
});

test('first above the maximum page size is an error, at the top and on a relation', async () => {
  expect(await api.errors(`{ queryPost(first: 10001) { slug } }`)).toEqual([{ code: 'BAD_USER_INPUT', message: 'first must be at most 10000, got 10001' }]);
  // One error per author whose posts were asked for.
  const nestedError = { code: 'BAD_USER_INPUT', message: 'first must be at most 10000, got 20000' };
  expect(await api.errors(`{ queryAuthor { handle posts(first: 20000) { slug } } }`)).toEqual([nestedError, nestedError, nestedError]);
  expect(await api.errors(`{ queryPost(offset: -1) { slug } }`)).toEqual([{ code: 'BAD_USER_INPUT', message: 'offset must not be negative, got -1' }]);
  const atMax = await api.data(`{ queryPost(first: 10000) { slug } }`);
  expect(atMax.queryPost).toHaveLength(5);
});

test('top-level order desc with first', async () => {
  const result = await api.data(`{ queryAuthor(order: { desc: age }, first: 2) { handle } }`);
  expect(pluck(result.queryAuthor, 'handle')).toEqual(['cy', 'ann']);
});

/**
 * Many objects: author "many" with BULK_POSTS posts b0000.., whose scores repeat (i % 4, so `then` decides
 * among ties), and post b0000 with BULK_TAGS tags. Both counts are above the default page size (1000).
 */
describe('many objects', () => {
  const BULK_POSTS = 1003;
  const BULK_TAGS = 1002;
  const bulk = useService(BLOG_SCHEMA);
  const slug = (index: number) => `b${String(index).padStart(4, '0')}`;

  beforeAll(async () => {
    const posts = Array.from({ length: BULK_POSTS }, (_, index) => ({
      slug: slug(index),
      title: `Bulk ${index}`,
      score: index % 4,
      author: { handle: 'many', name: 'Many' },
      ...(index === 0 ? { tags: Array.from({ length: BULK_TAGS }, (_, tag) => ({ name: `t${String(tag).padStart(4, '0')}` })) } : {}),
    }));
    const added = await bulk.data(`mutation($posts: [AddPostInput!]!) { addPost(input: $posts) { numUids } }`, { posts });
    expect(added.addPost.numUids).toBe(BULK_POSTS + BULK_TAGS + 1);
  });

  test('a list without first gives the default page of 1000, at the top and on relations; aggregates count all', async () => {
    const result = await bulk.data(`{
      queryPost { slug }
      rest: queryPost(offset: 1000) { slug }
      aggregatePost { count }
      queryTag { name }
      getAuthor(handle: "many") { posts { slug } postsAggregate { count } }
      getPost(slug: "b0000") { tags { name } }
    }`);
    expect(result.queryPost).toHaveLength(1000);
    expect(result.rest).toHaveLength(BULK_POSTS - 1000);
    expect(new Set([...pluck(result.queryPost, 'slug'), ...pluck(result.rest, 'slug')]).size).toBe(BULK_POSTS);
    expect(result.aggregatePost.count).toBe(BULK_POSTS);
    expect(result.queryTag).toHaveLength(1000);
    expect(result.getAuthor.posts).toHaveLength(1000);
    expect(result.getAuthor.postsAggregate.count).toBe(BULK_POSTS);
    expect(result.getPost.tags).toHaveLength(1000);
  });

  test('an explicit first above the default page size is served in full', async () => {
    const result = await bulk.data(`{ queryPost(first: 2000) { slug } getPost(slug: "b0000") { tags(first: 2000) { name } } }`);
    expect(result.queryPost).toHaveLength(BULK_POSTS);
    expect(result.getPost.tags).toHaveLength(BULK_TAGS);
  });

  test('order with then decides among equal values, at the top and on a relation', async () => {
    // Scores tie in fours; creation order (the tie-break without then) would give b0000, b0004, ... instead.
    const result = await bulk.data(`{
      queryPost(order: { asc: score, then: { desc: slug } }, first: 3, offset: 1) { slug score }
      getAuthor(handle: "many") { posts(order: { desc: score, then: { desc: slug } }, first: 3) { slug score } }
    }`);
    expect(result.queryPost).toEqual([{ slug: 'b0996', score: 0 }, { slug: 'b0992', score: 0 }, { slug: 'b0988', score: 0 }]);
    expect(result.getAuthor.posts).toEqual([{ slug: 'b0999', score: 3 }, { slug: 'b0995', score: 3 }, { slug: 'b0991', score: 3 }]);
  });
});
