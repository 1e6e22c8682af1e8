import { buildSchemaModel } from '../../src/sdl/build';
import {
  derivedRelationPipeline, derivedRelationQuery, pageDerivedChildren, readGroupedRelation, type RelationArgs,
} from '../../src/query/relations';
import { runPlan } from '../../src/resolve/read';
import { BLOG_SCHEMA, BLOG_SEED } from './schemas';
import { useService } from './harness';

/**
 * A derived relation loads with `findPerKey` (a page per parent) or one `find` paged per parent
 * (derivedRelationQuery) when it can, else with the grouping pipeline. All three must give every parent
 * the same children in the same order, on real data.
 */

const api = useService(BLOG_SCHEMA);
const model = buildSchemaModel(BLOG_SCHEMA).model!;

beforeAll(async () => {
  await api.data(BLOG_SEED);
  // More posts for bob, some without likes, so orders have ties and missing values.
  await api.data(`mutation {
    addPost(input: [
      { slug: "b1", title: "Joins again", likes: 12, author: { handle: "bob" }, tags: [{ name: "db" }, { name: "go" }] },
      { slug: "b2", title: "No likes yet", author: { handle: "bob" }, tags: [{ name: "db" }] },
      { slug: "b3", title: "Twelve likes", likes: 12, author: { handle: "bob" } }
    ]) { numUids }
    addProfile(input: [{ bio: "nobody's" }]) { numUids }
    updateAuthor(input: { filter: { handle: { eq: "cy" } }, set: { profile: { bio: "retired" } } }) { numUids }
  }`);
});

const CASES: Array<[string, string, RelationArgs]> = [
  ['Author', 'posts', {}],
  ['Author', 'posts', { order: { desc: 'likes' } }],
  ['Author', 'posts', { order: { asc: 'likes', then: { desc: 'slug' } }, first: 2, offset: 1 }],
  ['Author', 'posts', { filter: { likes: { ge: 10 } }, order: { asc: 'title' } }],
  ['Author', 'posts', { filter: { title: { anyofterms: 'go joins' } }, first: 1 }],
  ['Author', 'posts', { first: 0 }],
  ['Tag', 'posts', { order: { desc: 'published' } }],
  ['Tag', 'posts', { filter: { not: { slug: { eq: 'p1' } } }, order: { asc: 'score' }, offset: 1 }],
  ['Profile', 'owner', {}],
  ['Profile', 'owner', { filter: { age: { gt: 40 } } }],
];

test.each(CASES)('%s.%s %j: findPerKey = find paged per parent = grouping pipeline', async (typeName, fieldName, args) => {
  const store = api.server.store;
  const parents = await store.collection(typeName).find({});
  const parentIds = parents.map((parent) => parent._id);
  expect(parentIds.length).toBeGreaterThan(1);

  const query = derivedRelationQuery(model, typeName, fieldName, parentIds, args);
  expect(query).toBeDefined();
  const found = pageDerivedChildren(query!, await runPlan(store.collection(query!.collection), query!.plan, query!.sort, 0, undefined), parentIds);

  const { collection, pipeline } = derivedRelationPipeline(model, typeName, fieldName, parentIds, args);
  const grouped = readGroupedRelation(await store.collection(collection).aggregate(pipeline), parentIds);

  const { skip, limit } = query!.page;
  const perKey = limit === 0
    ? new Map()
    : await store.collection(query!.collection).findPerKey(query!.parentPath, parentIds, query!.childPlan.match, { sort: query!.sort, skip, limit });

  const ids = (pages: Map<string, Array<{ _id: string }>>) => parentIds.map((id) => (pages.get(id) ?? []).map((child) => child._id));
  expect(ids(found)).toEqual(ids(grouped));
  expect(ids(perKey)).toEqual(ids(found));
  // Not vacuous: some parent has children unless the case pages them all away.
  if (args.first !== 0) expect(ids(found).some((children) => children.length > 0)).toBe(true);
});

test('a filter that needs another collection (has on a derived relation) keeps the pipeline', () => {
  // Author.posts is derived, so `has: posts` on the owner needs a lookup; Author.profile is stored.
  expect(derivedRelationQuery(model, 'Profile', 'owner', ['x'], { filter: { has: 'posts' } })).toBeUndefined();
  expect(derivedRelationQuery(model, 'Profile', 'owner', ['x'], { filter: { has: 'profile' } })).toEqual({
    collection: 'Author',
    plan: { lookups: [], match: { profile: { $exists: true, $ne: null, $in: ['x'] } } },
    childPlan: { lookups: [], match: { profile: { $exists: true, $ne: null } } },
    sort: { _id: 1 },
    parentPath: 'profile',
    page: { skip: 0, limit: 1 },
  });
  expect(() => derivedRelationQuery(model, 'Post', 'author', ['x'])).toThrow('Post.author is stored on Post');
});
