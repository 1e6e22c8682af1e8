import { gql, uploadSchema } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 13 (dgrules): schemas written for Dgraph, in the style of Dgraph's own schema-generation test data
 * (graphql/schema/testdata/schemagen), load through `POST /admin/schema` unchanged; the generated API
 * then reads as Dgraph generates it for the feature each one uses. Schemas Dgraph refuses answer 400 with
 * line:column.
 */

const accepted: Array<[feature: string, schema: string]> = [
  ['input types as argument types of custom operations and fields', `
input AuthorFilterInput {
  names: [String!]
  minPosts: Int
}
type Author {
  id: ID!
  name: String! @search(by: [hash])
  similar(criteria: AuthorFilterInput): [Author] @lambda
}
type Query {
  authorsMatching(filter: AuthorFilterInput!): [Author] @lambda
}
type Mutation {
  importAuthors(from: AuthorFilterInput): Int @custom(http: { url: "http://127.0.0.1:1/import", method: POST, body: "{ from: $from }" })
}`],
  ['@search(by: []) on every searchable type (searchables)', `
type Post {
  postID: ID!
  title: String! @search(by: [])
  numLikes: Int @search(by: [])
  score: Float @search(by: [])
  isPublished: Boolean @search(by: [])
  publishByYear: DateTime @search(by: [])
  postTypeNone: PostType @search(by: [])
}
enum PostType {
  Fact
  Question
}`],
  ['@hasInverse on the concrete side of a relation to an interface (hasInverse-with-type-having-directive)', `
type Author {
  id: ID!
  name: String! @search(by: [hash])
  posts: [Post] @hasInverse(field: author)
}
interface Post {
  id: ID!
  text: String @search(by: [fulltext])
  datePublished: DateTime @search
  author: Author!
}
type Question implements Post {
  answered: Boolean
}
type Answer implements Post {
  markedUseful: Boolean
}`],
  ['@id(interface: true|false) (interface-with-id-directive)', `
interface LibraryItem {
  refID: String! @id(interface: false)
  itemID: String! @id(interface: true)
}
type Book implements LibraryItem {
  title: String
  author: String
}
type Library {
  items: [LibraryItem]
}`],
  ['arguments on fields (type-with-arguments-on-field)', `
interface Abstract {
  id: ID!
  name(random: Int!, size: String): String!
}
type Message implements Abstract {
  content(pick: Int!, name: String): String!
  author: String
  datePosted: DateTime
}`],
  ['@custom(http:) GET with a body', `
type Author {
  id: ID!
  name: String!
}
type Query {
  findAuthor(id: ID!): Author @custom(http: { url: "http://127.0.0.1:1/authors", method: GET, body: "{ id: $id }" })
}`],
  ['directive definitions, and uses of the directives they define (ignore-unsupported-directive)', `
enum Role {
  Admin
  User
}
directive @unkown1(r: Role = User) on OBJECT | FIELD_DEFINITION
directive @unkown2(r: Role = User, b: Role = User) on FIELD_DEFINITION
directive @unkown3(r: Role = User, b: Role = User) on FIELD_DEFINITION
type Product @unkown1 {
  id: ID!
  price: Float! @search @unkown1(r: Admin) @unkown2(r: User, b: Admin)
  name: String! @unkown1(r: Admin) @search @unkown2 @unkown3
}`],
  ['a custom mutation taking a list of input objects (custom-mutation)', `
type User {
	id: ID!
	name: String!
}

input UpdateFavouriteUserInput {
	name: String!
}

type Mutation {
	createMyFavouriteUsers(input: [UpdateFavouriteUserInput!]!): [User] @custom(http: {
		url: "http://my-api.com",
		method: "POST",
		body: "{ data: $input }"
	})
}`],
  ['input types with descriptions and comments, nesting another input (comments-and-descriptions, custom-nested-types)', `
# comment
"""
Desc
"""
input AnInput {
    # # comment
    id: ID! # comment

    """
    Desc
    """
    i: Int
    cars: [CarInput]
}

input CarInput {
	name: String!
}

type Car {
  id: ID!
  name: String!
}

type Mutation {
	registerCars(owner: AnInput!): [Car] @custom(http: { url: "http://my-api.com", method: "POST", body: "$owner" })
}`],
];

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(() => server.close());

interface IntrospectedField {
  name: string;
  args: Array<{ name: string; type: IntrospectedType }>;
  type: IntrospectedType;
}
interface IntrospectedType {
  kind: string;
  name: string | null;
  ofType: IntrospectedType | null;
}

async function typeShape(name: string): Promise<{ fields?: IntrospectedField[]; inputFields?: IntrospectedField[] } | null> {
  const typeRef = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
  const { body } = await gql(server.url, `query($name: String!) {
    __type(name: $name) { fields { name args { name type { ${typeRef} } } type { ${typeRef} } } inputFields { name type { ${typeRef} } } }
  }`, { name });
  expect(body.errors).toBeUndefined();
  return body.data!.__type;
}

/** A type reference printed as in SDL (`[String!]!`). */
function printed(type: IntrospectedType): string {
  if (type.kind === 'NON_NULL') return `${printed(type.ofType!)}!`;
  if (type.kind === 'LIST') return `[${printed(type.ofType!)}]`;
  return type.name!;
}

async function fieldSignature(typeName: string, fieldName: string): Promise<string> {
  const shape = await typeShape(typeName);
  const field = (shape?.fields ?? shape?.inputFields ?? []).find((candidate) => candidate.name === fieldName);
  if (!field) throw new Error(`no field ${typeName}.${fieldName} in the API`);
  const args = field.args?.length ? `(${field.args.map((arg) => `${arg.name}: ${printed(arg.type)}`).join(', ')})` : '';
  return `${fieldName}${args}: ${printed(field.type)}`;
}

describe.each(accepted)('a Dgraph schema with %s', (_feature, schema) => {
  it('loads with 200', async () => {
    const upload = await uploadSchema(server.url, schema);
    expect(upload.body.errors).toBeUndefined();
    expect(upload.status).toBe(200);
  });
});

describe('the generated API of the accepted schemas, as Dgraph generates it', () => {
  async function activate(feature: string): Promise<void> {
    const schema = accepted.find(([name]) => name === feature)![1];
    expect((await uploadSchema(server.url, schema)).status).toBe(200);
  }

  it('declares the input types and takes them as arguments', async () => {
    await activate(accepted[0]![0]);
    expect(await fieldSignature('AuthorFilterInput', 'names')).toBe('names: [String!]');
    expect(await fieldSignature('AuthorFilterInput', 'minPosts')).toBe('minPosts: Int');
    expect(await fieldSignature('Query', 'authorsMatching')).toBe('authorsMatching(filter: AuthorFilterInput!): [Author]');
    expect(await fieldSignature('Author', 'similar')).toBe("similar(criteria: AuthorFilterInput): [Author]");
    expect(await fieldSignature('Mutation', 'importAuthors')).toBe('importAuthors(from: AuthorFilterInput): Int');
  });

  it('declares a described input type nesting another, as written', async () => {
    await activate(accepted[8]![0]);
    const { body } = await gql(server.url, '{ __type(name: "AnInput") { description inputFields { name description } } }');
    expect(body).toEqual({ data: { __type: { description: 'Desc', inputFields: [
      { name: 'id', description: null },
      { name: 'i', description: 'Desc' },
      { name: 'cars', description: null },
    ] } } });
    expect(await fieldSignature('AnInput', 'cars')).toBe('cars: [CarInput]');
    expect(await fieldSignature('Mutation', 'registerCars')).toBe('registerCars(owner: AnInput!): [Car]');
  });

  it('gives @search(by: []) the default filter of each type', async () => {
    await activate(accepted[1]![0]);
    const filters = await Promise.all(['title', 'numLikes', 'score', 'isPublished', 'publishByYear', 'postTypeNone'].map((name) => fieldSignature('PostFilter', name)));
    expect(filters).toEqual([
      'title: StringTermFilter',
      'numLikes: IntFilter',
      'score: FloatFilter',
      'isPublished: Boolean',
      'publishByYear: DateTimeFilter',
      'postTypeNone: PostType_hash',
    ]);
  });

  it('prints the arguments of stored fields, on the interface and its implementing type', async () => {
    await activate(accepted[4]![0]);
    expect(await fieldSignature('Abstract', 'name')).toBe('name(random: Int!, size: String): String!');
    expect(await fieldSignature('Message', 'name')).toBe('name(random: Int!, size: String): String!');
    expect(await fieldSignature('Message', 'content')).toBe('content(pick: Int!, name: String): String!');
    const { body } = await gql(server.url, 'mutation { addMessage(input: [{ name: "n", content: "hello", author: "ada" }]) { message { content(pick: 1) name(random: 4) author } } }');
    expect(body).toEqual({ data: { addMessage: { message: [{ content: 'hello', name: 'n', author: 'ada' }] } } });
  });

  it('serves a relation to an interface whose @hasInverse the concrete side declares, both ways', async () => {
    await activate(accepted[2]![0]);
    const added = await gql(server.url, `mutation {
      addQuestion(input: [{ text: "Why?", author: { name: "Ada" } }]) { question { id } }
    }`);
    expect(added.body.errors).toBeUndefined();
    const { body } = await gql(server.url, `mutation($author: AuthorRef!) {
      addAnswer(input: [{ text: "Because.", author: $author }]) { answer { text author { name } } }
    }`, { author: { id: (await gql(server.url, '{ queryAuthor { id } }')).body.data!.queryAuthor[0].id } });
    expect(body).toEqual({ data: { addAnswer: { answer: [{ text: 'Because.', author: { name: 'Ada' } }] } } });
    const read = await gql(server.url, '{ queryAuthor { name posts(order: { asc: text }) { __typename text author { name } } } }');
    expect(read.body).toEqual({ data: { queryAuthor: [{ name: 'Ada', posts: [
      { __typename: 'Answer', text: 'Because.', author: { name: 'Ada' } },
      { __typename: 'Question', text: 'Why?', author: { name: 'Ada' } },
    ] }] } });
  });

  it('leaves the directives the schema defines out of the API', async () => {
    await activate(accepted[6]![0]);
    const { body } = await gql(server.url, '{ __schema { directives { name } } }');
    const names = (body.data!.__schema.directives as Array<{ name: string }>).map((directive) => directive.name);
    expect(names.filter((name) => name.startsWith('unkown'))).toEqual([]);
    expect(await fieldSignature('ProductFilter', 'price')).toBe('price: FloatFilter');
    expect(await fieldSignature('ProductFilter', 'name')).toBe('name: StringTermFilter');
  });
});

describe('schemas Dgraph refuses', () => {
  it('answer 400 with every error located and named', async () => {
    const upload = await uploadSchema(server.url, `type Post {
  id: ID!
  slug: String @search(by: [trigram, regexp])
  published: DateTime @search(by: [day, hour])
}
type Query {
  post(slug: String): Post @custom(http: { url: "http://127.0.0.1:1/posts/$slug", method: GET, mode: SINGLE })
}`);
    expect(upload.status).toBe(400);
    expect(upload.body.errors).toEqual([
      { message: "Type Post; field slug: the argument to @search 'trigram' is the same as the index 'regexp' provided before and shouldn't be used together", locations: [{ line: 3, column: 24 }], extensions: { code: 'BAD_SCHEMA' } },
      { message: 'Type Post; field published: has the search directive on DateTime. DateTime allows only one argument for @search (found day, hour)', locations: [{ line: 4, column: 31 }], extensions: { code: 'BAD_SCHEMA' } },
      { message: 'Type Query; field post: url path inside @custom directive uses an argument slug that can be null', locations: [{ line: 7, column: 49 }], extensions: { code: 'BAD_SCHEMA' } },
      { message: "Type Query; field post: mode field inside @custom directive can't be present on Query/Mutation", locations: [{ line: 7, column: 96 }], extensions: { code: 'BAD_SCHEMA' } },
    ]);
  });
});
