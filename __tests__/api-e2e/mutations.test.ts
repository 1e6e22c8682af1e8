import { BLOG_SCHEMA, BLOG_SEED } from './schemas';
import { pluck, useService } from './harness';

/** Mutations in depth: upsert, @id duplicates, edge removal, one-to-one upkeep, delete cleanup, all-or-nothing. */

const api = useService(BLOG_SCHEMA);

beforeEach(async () => {
  await api.data(`mutation {
    deleteAuthor(filter: {}) { numUids }
    deletePost(filter: {}) { numUids }
    deleteTag(filter: {}) { numUids }
    deleteProfile(filter: {}) { numUids }
  }`);
  await api.data(BLOG_SEED);
});

/** Every object of the blog, with both sides of each edge, in a stable order. */
async function snapshot(): Promise<any> {
  return api.data(`{
    queryAuthor(order: { asc: handle }) { handle name age email profile { bio } posts(order: { asc: slug }) { slug } }
    queryPost(order: { asc: slug }) { slug title author { handle } tags(order: { asc: name }) { name } }
    queryTag(order: { asc: name }) { name posts(order: { asc: slug }) { slug } }
    queryProfile(order: { asc: bio }) { bio owner { handle } }
  }`);
}

describe('upsert and @id', () => {
  test('addT(upsert: true) updates the object with the same @id and creates the others', async () => {
    const result = await api.data(`mutation {
      addAuthor(upsert: true, input: [
        { handle: "ann", name: "Ann Lee", age: 35, posts: [{ slug: "p6", title: "Go again" }] },
        { handle: "dee", name: "Dee" }
      ]) { numUids author(order: { asc: handle }) { handle name age email posts(order: { asc: slug }) { slug } } }
    }`);
    // New objects only: dee and the post p6.
    expect(result.addAuthor.numUids).toBe(2);
    expect(result.addAuthor.author).toEqual([
      { handle: 'ann', name: 'Ann Lee', age: 35, email: 'ann@example.com', posts: [{ slug: 'p1' }, { slug: 'p2' }, { slug: 'p3' }, { slug: 'p4' }, { slug: 'p6' }] },
      { handle: 'dee', name: 'Dee', age: null, email: null, posts: [] },
    ]);
    const count = await api.data(`{ aggregateAuthor(filter: { handle: { eq: "ann" } }) { count } }`);
    expect(count.aggregateAuthor.count).toBe(1);
  });

  test('the same object upserted twice in one add is listed once, with the last values', async () => {
    const result = await api.data(`mutation {
      addAuthor(upsert: true, input: [{ handle: "ann", name: "First" }, { handle: "ann", name: "Second" }]) { numUids author { handle name } }
    }`);
    expect(result.addAuthor).toEqual({ numUids: 0, author: [{ handle: 'ann', name: 'Second' }] });
  });

  test('upsert finds the existing object by any of its @id fields', async () => {
    const result = await api.data(`mutation {
      addAuthor(upsert: true, input: [{ handle: "ann-2", email: "ann@example.com", name: "Ann by email" }]) { numUids author { handle name } }
    }`);
    expect(result.addAuthor.numUids).toBe(0);
    expect(result.addAuthor.author).toEqual([{ handle: 'ann-2', name: 'Ann by email' }]);
    expect(await api.data(`{ getAuthor(handle: "ann") { name } }`)).toEqual({ getAuthor: null });
  });

  test('without upsert, an existing @id value is refused naming value, field and type, and nothing is written', async () => {
    const before = await snapshot();
    expect(await api.errors(`mutation { addAuthor(input: [{ handle: "bob", name: "Other Bob" }]) { numUids } }`)).toEqual([
      { code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation addAuthor because failed to rewrite mutation payload because id bob already exists for field handle inside type Author' },
    ]);
    expect(await api.errors(`mutation { addAuthor(input: [{ handle: "eve", email: "ann@example.com", name: "Eve" }]) { numUids } }`)).toEqual([
      { code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation addAuthor because failed to rewrite mutation payload because id ann@example.com already exists for field email inside type Author' },
    ]);
    expect(await api.errors(`mutation { addTag(input: [{ name: "go" }]) { numUids } }`)).toEqual([
      { code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation addTag because failed to rewrite mutation payload because id go already exists for field name inside type Tag' },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  test('two inputs of one add with the same @id value are refused', async () => {
    const before = await snapshot();
    const errors = await api.errors(`mutation {
      addAuthor(input: [{ handle: "twin", name: "One" }, { handle: "twin", name: "Two" }]) { numUids }
    }`);
    expect(errors).toEqual([{ code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation addAuthor because failed to rewrite mutation payload because id twin already exists for field handle inside type Author' }]);
    expect(await snapshot()).toEqual(before);
  });

  test('updateT setting an @id field to a value another object has is refused', async () => {
    const errors = await api.errors(`mutation {
      updateAuthor(input: { filter: { handle: { eq: "bob" } }, set: { email: "ann@example.com" } }) { numUids }
    }`);
    expect(errors).toEqual([{ code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation updateAuthor because failed to rewrite mutation payload because id ann@example.com already exists for field email inside type Author' }]);
    expect((await api.data(`{ getAuthor(handle: "bob") { email } }`)).getAuthor.email).toBeNull();
  });
});

describe('all or nothing', () => {
  test('a second input duplicating an @id the first created leaves nothing behind, nested objects included', async () => {
    const before = await snapshot();
    const errors = await api.errors(`mutation {
      addPost(input: [
        { slug: "n1", title: "New one", author: { handle: "newbie", name: "Newbie", profile: { bio: "fresh" } }, tags: [{ name: "rust" }, { name: "go" }] },
        { slug: "n1", title: "Same slug" }
      ]) { numUids }
    }`);
    expect(errors).toEqual([{ code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation addPost because failed to rewrite mutation payload because id n1 already exists for field slug inside type Post' }]);
    expect(await snapshot()).toEqual(before);
    const gone = await api.data(`{ getPost(slug: "n1") { slug } getAuthor(handle: "newbie") { handle } getTag(name: "rust") { name } }`);
    expect(gone).toEqual({ getPost: null, getAuthor: null, getTag: null });
  });

  test('a later input duplicating an existing object undoes the earlier inputs and their edges', async () => {
    const before = await snapshot();
    const errors = await api.errors(`mutation {
      addAuthor(input: [
        { handle: "dee", name: "Dee", posts: [{ slug: "d1", title: "Dee's first", tags: [{ name: "go" }] }] },
        { handle: "fay", name: "Fay", profile: { bio: "fay's" } },
        { handle: "gus", email: "ann@example.com", name: "Gus" }
      ]) { numUids }
    }`);
    expect(errors).toEqual([{ code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation addAuthor because failed to rewrite mutation payload because id ann@example.com already exists for field email inside type Author' }]);
    // The edge from d1 to the existing tag "go" is gone with d1 too.
    expect(await snapshot()).toEqual(before);
  });

  test('an input failing after earlier inputs changed existing objects restores them', async () => {
    const before = await snapshot();
    const { queryProfile } = await api.data(`{ queryProfile { id } }`);
    // The first input takes p1 from ann and ann's profile (writes to existing objects, done before the second
    // input is read); the second fails only while its own references are resolved.
    const errors = await api.errors(`mutation($profile: ID) {
      addAuthor(input: [
        { handle: "dee", name: "Dee", posts: [{ slug: "p1" }], profile: { id: $profile } },
        { handle: "eve", name: "Eve", posts: [{ slug: "e1", title: "Eve's", tags: [{ name: "new-tag" }] }, { id: "nope" }] }
      ]) { numUids }
    }`, { profile: queryProfile[0].id });
    expect(errors).toEqual([{ code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation addAuthor because failed to rewrite mutation payload because PostRef: no Post with id "nope"' }]);
    expect(await snapshot()).toEqual(before);
    const gone = await api.data(`{ getAuthor(handle: "dee") { handle } getPost(slug: "e1") { slug } getTag(name: "new-tag") { name } }`);
    expect(gone).toEqual({ getAuthor: null, getPost: null, getTag: null });
  });

  test('a reference to a missing id fails the whole update', async () => {
    const before = await snapshot();
    const errors = await api.errors(`mutation {
      updateAuthor(input: { filter: {}, set: { name: "Renamed", posts: [{ slug: "x1", title: "New" }, { id: "nope" }] } }) { numUids }
    }`);
    expect(errors).toEqual([{ code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation updateAuthor because failed to rewrite mutation payload because PostRef: no Post with id "nope"' }]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('edges', () => {
  test('updateT remove on a single edge, from the stored side', async () => {
    await api.data(`mutation { updatePost(input: { filter: { slug: { eq: "p1" } }, remove: { author: { handle: "ann" } } }) { numUids } }`);
    const result = await api.data(`{ getPost(slug: "p1") { author { handle } } getAuthor(handle: "ann") { posts(order: { asc: slug }) { slug } } }`);
    expect(result.getPost.author).toBeNull();
    expect(pluck(result.getAuthor.posts, 'slug')).toEqual(['p2', 'p3', 'p4']);
  });

  test('updateT remove on a single edge, from the derived side', async () => {
    // Naming another author leaves the edge alone.
    await api.data(`mutation { updateProfile(input: { filter: {}, remove: { owner: { handle: "bob" } } }) { numUids } }`);
    expect((await api.data(`{ queryProfile { owner { handle } } }`)).queryProfile).toEqual([{ owner: { handle: 'ann' } }]);
    await api.data(`mutation { updateProfile(input: { filter: {}, remove: { owner: { handle: "ann" } } }) { numUids } }`);
    const result = await api.data(`{ queryProfile { bio owner { handle } } getAuthor(handle: "ann") { profile { bio } } }`);
    expect(result).toEqual({ queryProfile: [{ bio: 'writes about Go', owner: null }], getAuthor: { profile: null } });
  });

  test('updateT remove of a single edge naming another object leaves the edge alone', async () => {
    await api.data(`mutation { updatePost(input: { filter: { slug: { eq: "p1" } }, remove: { author: { handle: "bob" } } }) { numUids } }`);
    expect((await api.data(`{ getPost(slug: "p1") { author { handle } } }`)).getPost.author).toEqual({ handle: 'ann' });
  });

  test('updateT remove on list edges, from the stored side and from the derived side', async () => {
    await api.data(`mutation {
      updatePost(input: { filter: { slug: { eq: "p4" } }, remove: { tags: [{ name: "go" }] } }) { numUids }
      updateTag(input: { filter: { name: { eq: "ts" } }, remove: { posts: [{ slug: "p2" }] } }) { numUids }
    }`);
    const result = await snapshot();
    expect(result.queryPost.find((post: any) => post.slug === 'p4').tags).toEqual([{ name: 'db' }]);
    expect(result.queryPost.find((post: any) => post.slug === 'p2').tags).toEqual([{ name: 'go' }]);
    expect(result.queryTag).toEqual([
      { name: 'db', posts: [{ slug: 'p4' }, { slug: 'p5' }] },
      { name: 'go', posts: [{ slug: 'p1' }, { slug: 'p2' }] },
      { name: 'ts', posts: [{ slug: 'p3' }] },
    ]);
  });

  test('updateT remove on a derived list relation (one-to-many) unsets the partner', async () => {
    const { getPost } = await api.data(`{ getPost(slug: "p3") { id } }`);
    await api.data(`mutation($id: ID) {
      updateAuthor(input: { filter: { handle: { eq: "ann" } }, remove: { posts: [{ id: $id }, { slug: "p5" }] } }) { numUids }
    }`, { id: getPost.id });
    const result = await api.data(`{ queryPost(filter: { slug: { in: ["p3", "p5"] } }, order: { asc: slug }) { slug author { handle } } }`);
    // p5 belongs to bob: removing it from ann changes nothing.
    expect(result.queryPost).toEqual([{ slug: 'p3', author: null }, { slug: 'p5', author: { handle: 'bob' } }]);
  });

  test('updateT set and remove of scalars; remove only when the value matches', async () => {
    await api.data(`mutation {
      a: updateAuthor(input: { filter: { handle: { eq: "ann" } }, remove: { age: 99, email: "ann@example.com" } }) { numUids }
      b: updatePost(input: { filter: { likes: { lt: 10 } }, set: { score: 1.0 }, remove: { title: "Go generics" } }) { numUids post { slug } }
    }`);
    const result = await api.data(`{
      getAuthor(handle: "ann") { age email }
      queryPost(filter: { score: { eq: 1.0 } }, order: { asc: slug }) { slug }
    }`);
    expect(result.getAuthor).toEqual({ age: 34, email: null });
    expect(pluck(result.queryPost, 'slug')).toEqual(['p2', 'p4']);
    // The title is required, but remove with the stored value takes it away (as Dgraph does).
    const titles = await api.data(`{ queryPost(filter: { title: { allofterms: "generics" } }) { slug } }`);
    expect(titles.queryPost).toEqual([]);
  });

  test('updateT sets a list edge from the derived side; both sides agree', async () => {
    await api.data(`mutation { updateTag(input: { filter: { name: { eq: "db" } }, set: { posts: [{ slug: "p1" }, { slug: "p9", title: "Brand new" }] } }) { numUids } }`);
    const result = await snapshot();
    expect(result.queryTag.find((tag: any) => tag.name === 'db').posts).toEqual([{ slug: 'p1' }, { slug: 'p4' }, { slug: 'p5' }, { slug: 'p9' }]);
    expect(result.queryPost.find((post: any) => post.slug === 'p1').tags).toEqual([{ name: 'db' }, { name: 'go' }]);
    expect(result.queryPost.find((post: any) => post.slug === 'p9')).toEqual({ slug: 'p9', title: 'Brand new', author: null, tags: [{ name: 'db' }] });
  });
});

describe('add from the derived side', () => {
  test('addTag with posts links existing and new posts; both sides agree', async () => {
    const result = await api.data(`mutation {
      addTag(input: [{ name: "rust", posts: [{ slug: "p1" }, { slug: "r1", title: "Rust ownership" }] }]) {
        numUids tag { name posts(order: { asc: slug }) { slug tags(order: { asc: name }) { name } } }
      }
    }`);
    expect(result.addTag).toEqual({
      numUids: 2,
      tag: [{ name: 'rust', posts: [{ slug: 'p1', tags: [{ name: 'go' }, { name: 'rust' }] }, { slug: 'r1', tags: [{ name: 'rust' }] }] }],
    });
    const after = await snapshot();
    expect(after.queryPost.find((post: any) => post.slug === 'p1').tags).toEqual([{ name: 'go' }, { name: 'rust' }]);
    expect(after.queryTag.find((tag: any) => tag.name === 'go').posts).toEqual([{ slug: 'p1' }, { slug: 'p2' }, { slug: 'p4' }]);
  });
});

describe('one-to-one', () => {
  test('giving a profile to another author takes it from the first (stored side)', async () => {
    await api.data(`mutation { updateAuthor(input: { filter: { handle: { eq: "bob" } }, set: { profile: { bio: "writes about Go" } } }) { numUids } }`);
    // "writes about Go" is not an @id: the ref above creates a second profile. Move ann's own by id instead.
    const { queryProfile } = await api.data(`{ queryProfile(filter: { bio: { allofterms: "go" } }) { id owner { handle } } }`);
    const annsProfile = queryProfile.find((profile: any) => profile.owner?.handle === 'ann');
    await api.data(`mutation($id: ID) { updateAuthor(input: { filter: { handle: { eq: "cy" } }, set: { profile: { id: $id } } }) { numUids } }`, { id: annsProfile.id });
    const result = await api.data(`{
      queryAuthor(order: { asc: handle }) { handle profile { id } }
      profile: queryProfile(filter: { id: ["${annsProfile.id}"] }) { owner { handle } }
      owners: aggregateAuthor(filter: { has: profile }) { count }
    }`);
    expect(result.queryAuthor.find((author: any) => author.handle === 'ann').profile).toBeNull();
    expect(result.queryAuthor.find((author: any) => author.handle === 'cy').profile).toEqual({ id: annsProfile.id });
    expect(result.profile).toEqual([{ owner: { handle: 'cy' } }]);
    expect(result.owners.count).toBe(2);
  });

  test('setting the owner from the derived side detaches the previous owner', async () => {
    await api.data(`mutation { updateProfile(input: { filter: { bio: { allofterms: "go" } }, set: { owner: { handle: "bob" } } }) { numUids } }`);
    const result = await api.data(`{
      queryAuthor(order: { asc: handle }) { handle profile { bio } }
      queryProfile { bio owner { handle } }
    }`);
    expect(result.queryAuthor).toEqual([
      { handle: 'ann', profile: null },
      { handle: 'bob', profile: { bio: 'writes about Go' } },
      { handle: 'cy', profile: null },
    ]);
    expect(result.queryProfile).toEqual([{ bio: 'writes about Go', owner: { handle: 'bob' } }]);
  });

  test('adding an object that takes an existing one-to-one partner detaches it from its old partner', async () => {
    const { queryProfile } = await api.data(`{ queryProfile { id } }`);
    await api.data(`mutation($id: ID) { addAuthor(input: [{ handle: "dee", name: "Dee", profile: { id: $id } }]) { numUids } }`, { id: queryProfile[0].id });
    const result = await api.data(`{ queryAuthor(filter: { has: profile }) { handle } queryProfile { owner { handle } } }`);
    expect(result).toEqual({ queryAuthor: [{ handle: 'dee' }], queryProfile: [{ owner: { handle: 'dee' } }] });
  });
});

describe('delete', () => {
  test('deleting a tag removes it from every post that listed it', async () => {
    const result = await api.data(`mutation { deleteTag(filter: { name: { eq: "go" } }) { numUids msg tag { name } } }`);
    expect(result.deleteTag).toEqual({ numUids: 1, msg: 'Deleted', tag: [{ name: 'go' }] });
    const after = await snapshot();
    expect(after.queryPost.map((post: any) => [post.slug, pluck(post.tags, 'name')])).toEqual([
      ['p1', []], ['p2', ['ts']], ['p3', ['ts']], ['p4', ['db']], ['p5', ['db']],
    ]);
    expect((await api.data(`{ queryPost(filter: { has: tags }, order: { asc: slug }) { slug } }`)).queryPost).toEqual(
      [{ slug: 'p2' }, { slug: 'p3' }, { slug: 'p4' }, { slug: 'p5' }],
    );
  });

  test('deleting an author leaves its posts without an author, and its profile without an owner', async () => {
    await api.data(`mutation { deleteAuthor(filter: { handle: { eq: "ann" } }) { numUids } }`);
    const after = await snapshot();
    expect(after.queryPost.map((post: any) => post.author?.handle ?? null)).toEqual([null, null, null, null, 'bob']);
    expect(after.queryProfile).toEqual([{ bio: 'writes about Go', owner: null }]);
    expect((await api.data(`{ aggregatePost(filter: { has: author }) { count } }`)).aggregatePost.count).toBe(1);
  });

  test('deleting posts removes them from their author and their tags (derived sides)', async () => {
    await api.data(`mutation { deletePost(filter: { title: { anyofterms: "go" } }) { numUids } }`);
    const after = await snapshot();
    expect(after.queryAuthor.find((author: any) => author.handle === 'ann').posts).toEqual([{ slug: 'p3' }, { slug: 'p4' }]);
    expect(after.queryTag).toEqual([
      { name: 'db', posts: [{ slug: 'p4' }, { slug: 'p5' }] },
      { name: 'go', posts: [{ slug: 'p4' }] },
      { name: 'ts', posts: [{ slug: 'p3' }] },
    ]);
  });

  test('deleting a profile unsets the owner\'s stored edge', async () => {
    await api.data(`mutation { deleteProfile(filter: {}) { numUids } }`);
    expect((await api.data(`{ queryAuthor(filter: { has: profile }) { handle } }`)).queryAuthor).toEqual([]);
  });
});
