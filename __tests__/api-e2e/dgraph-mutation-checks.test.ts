import { useService } from './harness';

/**
 * Nothing invalid is ever written (issue 31, section 3), with Dgraph's messages: every object a mutation
 * creates passes the checks of a top-level add, wherever in the mutation it is created (an update's `set`,
 * a nested Ref at any depth, an upsert); a refused mutation writes nothing. The schema and the cases are
 * those of Dgraph's own tests (graphql/e2e/common/mutation.go and error.go, graphql/resolve/*.yaml).
 */
const SCHEMA = `
type Country {
  id: ID!
  name: String! @search(by: [hash])
  states: [State] @hasInverse(field: country)
}

type State {
  id: ID!
  xcode: String! @id @search(by: [regexp])
  name: String!
  capital: String
  country: Country
}

type Author {
  id: ID!
  name: String! @search(by: [hash])
  posts: [Post] @hasInverse(field: author)
}

type Post {
  postID: ID!
  title: String! @search(by: [term])
  numLikes: Int @search
  numViews: Int64 @search
  author: Author!
}

type Employer {
  company: String! @id
  worker: [Worker]
}

type Worker {
  regNo: Int @id
  empId: String! @id
  name: String!
}
`;

const api = useService(SCHEMA);

/** Everything stored, in a stable order: what a refused mutation must leave as it was. */
async function everything(): Promise<unknown> {
  return api.data(`{
    queryCountry(order: { asc: name }) { name states(order: { asc: xcode }) { xcode name } }
    queryState(order: { asc: xcode }) { xcode name capital country { name } }
    queryAuthor(order: { asc: name }) { name posts(order: { asc: title }) { title numLikes numViews } }
    queryPost(order: { asc: title }) { title author { name } }
    queryEmployer(order: { asc: company }) { company worker(order: { asc: empId }) { empId regNo name } }
    queryWorker(order: { asc: empId }) { empId regNo name }
  }`);
}

beforeEach(async () => {
  await api.data(`mutation {
    deleteCountry(filter: {}) { numUids }
    deleteState(filter: {}) { numUids }
    deleteAuthor(filter: {}) { numUids }
    deletePost(filter: {}) { numUids }
    deleteEmployer(filter: {}) { numUids }
    deleteWorker(filter: {}) { numUids }
  }`);
  await api.data(`mutation {
    addCountry(input: [{ name: "Testland", states: [{ xcode: "T1", name: "Tee" }] }]) { numUids }
    addAuthor(input: [{ name: "Ann", posts: [{ title: "Hello", numLikes: 2, numViews: 10 }] }]) { numUids }
    addWorker(input: [{ empId: "E01", regNo: 1, name: "Alice" }, { empId: "E02", regNo: 2, name: "Bob" }]) { numUids }
  }`);
});

/** The one error a request answers, as `{ code, message }`. */
async function refusal(query: string, variables?: Record<string, unknown>): Promise<{ code: unknown; message: string }> {
  const errors = await api.errors(query, variables);
  expect(errors).toHaveLength(1);
  return errors[0]!;
}

const UPDATE_COUNTRY = `mutation ($set: CountryPatch!) {
  updateCountry(input: { filter: { name: { eq: "Testland" } }, set: $set }) { country { name } }
}`;

describe('objects created inside an update\'s set pass the checks of an add (Dgraph\'s deepMutationErrors)', () => {
  test.each([
    ['no @id value: the required @id is missing', { states: [{ name: 'NOT A VALID STATE' }] },
      'couldn\'t rewrite mutation updateCountry because failed to rewrite mutation payload because field xcode cannot be empty'],
    ['an @id value no object has: a new object, whose required fields are missing', { states: [{ xcode: 'NOT A VALID CODE' }] },
      'couldn\'t rewrite mutation updateCountry because failed to rewrite mutation payload because type State requires a value for field name, but no value present'],
    ['an empty @id value', { states: [{ xcode: '', name: 'Empty' }] },
      'couldn\'t rewrite mutation updateCountry because failed to rewrite mutation payload because encountered an empty value for @id field `State.xcode`'],
  ])('%s', async (_name, set, message) => {
    const before = await everything();
    expect(await refusal(UPDATE_COUNTRY, { set })).toEqual({ code: 'BAD_USER_INPUT', message });
    expect(await everything()).toEqual(before);
  });

  test('a valid new object and an existing one by @id are written, and read back', async () => {
    await api.data(UPDATE_COUNTRY, { set: { states: [{ xcode: 'T1' }, { xcode: 'T2', name: 'Two' }] } });
    expect(await api.data(`{ queryState(order: { asc: xcode }) { xcode name country { name } } }`)).toEqual({
      queryState: [{ xcode: 'T1', name: 'Tee', country: { name: 'Testland' } }, { xcode: 'T2', name: 'Two', country: { name: 'Testland' } }],
    });
  });

  test('the check is made even when the filter matches no object (Dgraph checks the input before it runs)', async () => {
    const before = await everything();
    expect(await refusal(`mutation {
      updateCountry(input: { filter: { name: { eq: "Nowhere" } }, set: { states: [{ name: "x" }] } }) { numUids }
    }`)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'couldn\'t rewrite mutation updateCountry because failed to rewrite mutation payload because field xcode cannot be empty',
    });
    expect(await everything()).toEqual(before);
  });

  test('deeper: a Worker created under an Employer created in an update\'s set (Dgraph: "Deep level update mutation ...")', async () => {
    await api.data(`mutation { addEmployer(input: [{ company: "GraphQL" }]) { numUids } }`);
    const before = await everything();
    expect(await refusal(`mutation {
      updateEmployer(input: { filter: { company: { in: "GraphQL" } }, set: { worker: { empId: "E07" } } }) { numUids }
    }`)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'couldn\'t rewrite mutation updateEmployer because failed to rewrite mutation payload because type Worker requires a value for field name, but no value present',
    });
    expect(await everything()).toEqual(before);
  });
});

describe('nested objects of an add and of an upsert', () => {
  test('a nested new object without its required @id (Dgraph: "Non-nullable xid should be present in add Mutation for nested field")', async () => {
    const before = await everything();
    expect(await refusal(`mutation { addCountry(input: [{ name: "Dgraph Land", states: [{ name: "Dgraph" }] }]) { numUids } }`)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'couldn\'t rewrite mutation addCountry because failed to rewrite mutation payload because field xcode cannot be empty',
    });
    expect(await refusal(`mutation { addCountry(input: [{ name: "Dgraph Land", states: [{ xcode: "", name: "Dgraph" }] }]) { numUids } }`)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'couldn\'t rewrite mutation addCountry because failed to rewrite mutation payload because encountered an empty value for @id field `State.xcode`',
    });
    expect(await everything()).toEqual(before);
  });

  test('an upsert creating a nested object without its required @id (Dgraph: "Non-nullable id should be present ... using upsert")', async () => {
    const before = await everything();
    expect(await refusal(`mutation {
      addEmployer(upsert: true, input: [{ company: "ABC tech1", worker: { regNo: 104, name: "John" } }]) { numUids }
    }`)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'couldn\'t rewrite mutation addEmployer because failed to rewrite mutation payload because type Worker requires a value for field empId, but no value present',
    });
    expect(await everything()).toEqual(before);
  });

  test('the field the parent\'s edge sets is not asked for: a Post created under an Author gets its author', async () => {
    await api.data(`mutation { addAuthor(input: [{ name: "Bea", posts: [{ title: "Mine" }] }]) { numUids } }`);
    expect(await api.data(`{ queryPost(filter: { title: { anyofterms: "Mine" } }) { title author { name } } }`)).toEqual({
      queryPost: [{ title: 'Mine', author: { name: 'Bea' } }],
    });
  });

  test('an upsert whose @id values name two different objects is refused, at the top and nested', async () => {
    const before = await everything();
    const message = 'multiple nodes found for given xid values, updation not possible';
    expect(await refusal(`mutation {
      addWorker(upsert: true, input: [{ empId: "E01", regNo: 2, name: "Both" }]) { numUids }
    }`)).toEqual({ code: 'BAD_USER_INPUT', message: `couldn't rewrite mutation addWorker because failed to rewrite mutation payload because ${message}` });
    expect(await refusal(`mutation {
      addEmployer(upsert: true, input: [{ company: "ABC tech", worker: { empId: "E02", regNo: 1, name: "William" } }]) { numUids }
    }`)).toEqual({ code: 'BAD_USER_INPUT', message: `couldn't rewrite mutation addEmployer because failed to rewrite mutation payload because ${message}` });
    expect(await everything()).toEqual(before);
  });

  test('@id values that all name one object are that object', async () => {
    const result = await api.data(`mutation {
      addEmployer(input: [{ company: "One", worker: { empId: "E02", regNo: 2 } }]) { employer { company worker { empId name } } }
    }`);
    expect(result.addEmployer.employer).toEqual([{ company: 'One', worker: [{ empId: 'E02', name: 'Bob' }] }]);
  });
});

describe('remove, payloads, filters and scalars as Dgraph refuses them', () => {
  test('remove with a reference that names no id (Dgraph\'s mutationEmptyDelete), even when the filter matches nothing', async () => {
    const before = await everything();
    expect(await refusal(`mutation {
      updatePost(input: { filter: { title: { allofterms: "Random" } }, remove: { author: { name: "Non Existent" } } }) { post { title } }
    }`)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'couldn\'t rewrite mutation updatePost because failed to rewrite mutation payload because id is not provided',
    });
    expect(await everything()).toEqual(before);
  });

  test('remove by id or by @id value is accepted', async () => {
    await api.data(`mutation {
      updateCountry(input: { filter: { name: { eq: "Testland" } }, remove: { states: [{ xcode: "T1" }] } }) { numUids }
    }`);
    expect(await api.data(`{ queryCountry { name states { xcode } } }`)).toEqual({ queryCountry: [{ name: 'Testland', states: [] }] });
  });

  test('@cascade(fields:) on a mutation may name only fields of its payload type, and the refused mutation writes nothing', async () => {
    const before = await everything();
    const errors = await api.errors(`mutation { addAuthor(input: [{ name: "jatin" }]) @cascade(fields: ["name"]) { author { name } } }`);
    expect(errors).toEqual([{
      code: 'BAD_USER_INPUT',
      message: 'Field `name` is not present in type `AddAuthorPayload`. You can only use fields in cascade which are in type `AddAuthorPayload`',
    }]);
    expect(await api.errors(`mutation ($fields: [String]) { deleteAuthor(filter: {}) @cascade(fields: $fields) { numUids } }`, { fields: ['posts'] })).toEqual([{
      code: 'BAD_USER_INPUT',
      message: 'Field `posts` is not present in type `DeleteAuthorPayload`. You can only use fields in cascade which are in type `DeleteAuthorPayload`',
    }]);
    expect(await everything()).toEqual(before);
  });

  test('@cascade on a mutation applies to its payload\'s list (Dgraph\'s checkCascadeWithMutationWithoutIDField)', async () => {
    const result = await api.data(`mutation {
      addState(input: [{ xcode: "S2", name: "State2" }]) @cascade(fields: ["numUids"]) { state @cascade(fields: ["xcode"]) { xcode name } }
    }`);
    expect(result).toEqual({ addState: { state: [{ xcode: 'S2', name: 'State2' }] } });
    const cascaded = await api.data(`mutation {
      addState(input: [{ xcode: "S3", name: "State3" }]) @cascade { state { xcode capital } }
    }`);
    expect(cascaded).toEqual({ addState: { state: [] } });
    // The mutation's fields: list is about its payload; its list field gets a plain @cascade.
    const listed = await api.data(`mutation {
      addState(input: [{ xcode: "S4", name: "State4", capital: "C4" }, { xcode: "S5", name: "State5" }]) @cascade(fields: ["state"]) {
        state(order: { asc: xcode }) { xcode capital }
      }
    }`);
    expect(listed).toEqual({ addState: { state: [{ xcode: 'S4', capital: 'C4' }] } });
  });

  test('two operators in one scalar filter (Dgraph: "Error when multiple filter functions are used")', async () => {
    expect(await refusal(`{ queryPost(filter: { numLikes: { eq: 2, le: 2 } }) { title } }`)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'IntFilter filter expects only one filter function, got: 2',
    });
    const before = await everything();
    expect(await refusal(`mutation { deletePost(filter: { numViews: { eq: 10, ge: 1 } }) { numUids } }`)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'couldn\'t rewrite mutation deletePost because Int64Filter filter expects only one filter function, got: 2',
    });
    expect(await everything()).toEqual(before);
  });

  test('an Int64 given as a float in variables (Dgraph: "Float value is Incompatible with Int64 type given in variable")', async () => {
    const before = await everything();
    const errors = await api.errors(`mutation addPost($Post: [AddPostInput!]!) { addPost(input: $Post) { post { title } } }`, {
      Post: [{ title: 'Dgraph', author: { name: 'Alice' }, numViews: 180143985094.5 }],
    });
    expect(errors).toEqual([{
      code: 'BAD_USER_INPUT',
      message: 'Variable "$Post" got invalid value 180143985094.5 at "Post[0].numViews"; Type mismatched for Value `180143985094.5`, expected:`Int64`',
    }]);
    expect(await refusal(`mutation { addPost(input: [{ title: "Dgraph", author: { name: "Bob" }, numViews: 180143985094.0 }]) { post { title } } }`)).toEqual({
      code: 'GRAPHQL_VALIDATION_FAILED',
      message: 'Type mismatched for Value `180143985094.0`, expected: Int64, got: \'Float\'',
    });
    expect(await everything()).toEqual(before);
  });
});

describe('mutation error messages start as Dgraph\'s', () => {
  test('a duplicate @id in an add (Dgraph\'s addMutationWithXid)', async () => {
    expect(await refusal(`mutation { addState(input: [{ xcode: "T1", name: "Again" }]) { numUids } }`)).toEqual({
      code: 'DUPLICATE_ID',
      message: 'couldn\'t rewrite mutation addState because failed to rewrite mutation payload because id T1 already exists for field xcode inside type State',
    });
  });

  test('a delete that matches nothing answers msg "No nodes were deleted" (Dgraph\'s deleteWrongID)', async () => {
    expect(await api.data(`mutation { deleteCountry(filter: { name: { eq: "Nowhere" } }) { msg numUids } }`)).toEqual({
      deleteCountry: { msg: 'No nodes were deleted', numUids: 0 },
    });
    expect(await api.data(`mutation { deleteCountry(filter: { name: { eq: "Testland" } }) { msg numUids } }`)).toEqual({
      deleteCountry: { msg: 'Deleted', numUids: 1 },
    });
  });
});
