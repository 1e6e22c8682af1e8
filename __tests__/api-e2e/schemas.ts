/** Schemas of the api-e2e tests. */

/**
 * Blog: a one-to-many pair (Author.posts derived from Post.author), a many-to-many pair (Post.tags stored,
 * Tag.posts derived), a one-to-one pair (Author.profile stored, Profile.owner derived), two `@id` fields
 * on Author and a type keyed by its `@id` alone (Tag).
 */
export const BLOG_SCHEMA = `
type Author {
  id: ID!
  handle: String! @id
  email: String @id
  name: String! @search(by: [exact])
  age: Int @search
  posts: [Post] @hasInverse(field: author)
  profile: Profile @hasInverse(field: owner)
}

type Post {
  id: ID!
  slug: String! @id
  title: String! @search(by: [term])
  score: Float @search
  likes: Int @search
  views: Int64
  published: DateTime @search
  author: Author
  tags: [Tag] @hasInverse(field: posts)
}

type Tag {
  name: String! @id
  posts: [Post]
}

type Profile {
  id: ID!
  bio: String @search(by: [term])
  owner: Author
}
`;

/** Authors ann (posts p1..p4), bob (p5) and cy (none); tags go, ts, db. */
export const BLOG_SEED = `mutation {
  addAuthor(input: [
    { handle: "ann", email: "ann@example.com", name: "Ann", age: 34, profile: { bio: "writes about Go" }, posts: [
      { slug: "p1", title: "Go channels", score: 4.5, likes: 10, views: 1000, published: "2024-01-10T00:00:00Z", tags: [{ name: "go" }] },
      { slug: "p2", title: "Go generics", score: 3.0, likes: 3, views: 300, published: "2024-02-10T00:00:00Z", tags: [{ name: "go" }, { name: "ts" }] },
      { slug: "p3", title: "TypeScript types", score: 5.0, likes: 25, views: 2500, published: "2024-03-10T00:00:00Z", tags: [{ name: "ts" }] },
      { slug: "p4", title: "Indexes in databases", score: 2.0, likes: 7, views: 700, published: "2024-04-10T00:00:00Z", tags: [{ name: "db" }, { name: "go" }] }
    ] },
    { handle: "bob", name: "Bob", age: 28, posts: [
      { slug: "p5", title: "Database joins", score: 4.0, likes: 12, views: 1200, published: "2024-05-10T00:00:00Z", tags: [{ name: "db" }] }
    ] },
    { handle: "cy", name: "Cy", age: 51 }
  ]) { numUids }
}`;

/**
 * Tasks with every field searchable, so a filter can combine a term, a flag, a range and an order: the
 * ordered-page and count tests (time-ordered-pages, term-pages-at-scale), with the seed each test adds.
 */
export const SEARCHABLE_TASK_SCHEMA = `
type Task {
  id: ID!
  title: String! @search(by: [term])
  completed: Boolean! @search
  priority: Int @search
  createdAt: DateTime @search
}
`;

/** A task as a test adds it. */
export interface SeedTask {
  title: string;
  completed: boolean;
  priority: number;
  createdAt: string;
}
