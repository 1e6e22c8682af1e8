/**
 * `regexp` filters over HTTP run in linear time (RE2), in user filters and in `@auth` rules (a direct
 * filter and a semi-join through a relation), and a pattern RE2 cannot run is refused as the client's
 * mistake. `/(a+)+$/` against 30 `a`s and a `!` takes a backtracking engine about a minute: these tests
 * only finish because it no longer runs with one.
 */
import { pluck, useService } from '../api-e2e/harness';

const HOSTILE = 'a'.repeat(30) + '!';
const EXPONENTIAL = '/(a+)+$/';

const SCHEMA = `
type Item {
  sku: String! @id
  text: String @search(by: [regexp])
  tags: [String] @search(by: [trigram])
}

type Doc @auth(query: { rule: """query { queryDoc(filter: { label: { regexp: "${EXPONENTIAL}" } }) { __typename } }""" }) {
  sku: String! @id
  label: String @search(by: [regexp])
}

type Card @auth(query: { rule: """query { queryCard { board(filter: { title: { regexp: "${EXPONENTIAL}" } }) { __typename } } }""" }) {
  sku: String! @id
  board: Board
}

type Board {
  sku: String! @id
  title: String @search(by: [regexp])
}
`;

const api = useService(SCHEMA);

beforeAll(async () => {
  await api.data(`mutation {
    addItem(input: [
      { sku: "hostile", text: "${HOSTILE}", tags: ["x", "${HOSTILE}"] },
      { sku: "aaa", text: "aaa", tags: ["bbb", "caaa"] },
      { sku: "cafe", text: "Café au lait\\nsecond line", tags: ["ΑΒΓ"] },
      { sku: "phone", text: "call 555-1234 now", tags: ["555"] },
      { sku: "empty" }
    ]) { numUids }
    addDoc(input: [{ sku: "d-hostile", label: "${HOSTILE}" }, { sku: "d-aaa", label: "xaaa" }]) { numUids }
    addBoard(input: [{ sku: "b-hostile", title: "${HOSTILE}" }, { sku: "b-aaa", title: "aaa" }]) { numUids }
    addCard(input: [{ sku: "c-hostile", board: { sku: "b-hostile" } }, { sku: "c-aaa", board: { sku: "b-aaa" } }]) { numUids }
  }`);
});

async function skus(filter: string): Promise<string[]> {
  const result = await api.data(`{ queryItem(filter: ${filter}, order: { asc: sku }) { sku } }`);
  return pluck(result.queryItem, 'sku');
}

test('the exponential pattern against a hostile value answers, and answers right', async () => {
  expect(await skus(`{ text: { regexp: "${EXPONENTIAL}" } }`)).toEqual(['aaa']);
  expect(await skus(`{ tags: { regexp: "${EXPONENTIAL}" } }`)).toEqual(['aaa']);
  expect(await skus(`{ not: { text: { regexp: "${EXPONENTIAL}" } } }`)).toEqual(['cafe', 'empty', 'hostile', 'phone']);
});

test('the same pattern in @auth rules, directly and through a relation', async () => {
  expect(pluck((await api.data('{ queryDoc(order: { asc: sku }) { sku } }')).queryDoc, 'sku')).toEqual(['d-aaa']);
  expect(pluck((await api.data('{ queryCard(order: { asc: sku }) { sku } }')).queryCard, 'sku')).toEqual(['c-aaa']);
});

test.each<[string, string, string[]]>([
  ['case-sensitive by default', '/^call/', ['phone']],
  ['the i flag', '/^CAFÉ/i', ['cafe']],
  ['$ anchors at the end of the value only', '/au lait$/', []],
  ['inline flags reach past a newline', '/(?m)au lait$/', ['cafe']],
  ['classes and counts', '/\\\\d{3}-\\\\d{4}/', ['phone']],
  ['a unicode property class in a list field', '/^\\\\p{Greek}+$/', ['cafe']],
  ['a non-ASCII character is one dot', '/^Caf.\\\\s/', ['cafe']],
  ['alternation', '/^(aaa$|call)/', ['aaa', 'phone']],
])('%s: %s', async (_name, pattern, expected) => {
  const field = pattern.includes('Greek') ? 'tags' : 'text';
  expect(await skus(`{ ${field}: { regexp: "${pattern}" } }`)).toEqual(expected);
});

test.each<[string, string, string]>([
  ['a backreference', '/(a)\\\\1/', 'Item.text regexp: /(a)\\1/ is not a regular expression RE2 can run: invalid escape sequence: `\\1`'],
  ['a lookahead', '/a(?=b)/', 'Item.text regexp: /a(?=b)/ is not a regular expression RE2 can run: invalid or unsupported Perl syntax: `(?=`'],
  ['an unclosed group', '/a(b/', 'Item.text regexp: /a(b/ is not a regular expression RE2 can run: missing closing ): `a(b`'],
  ['a pattern too large to match quickly', '/[a-z]{1000}/', 'Item.text regexp: /[a-z]{1000}/ is too large: it compiles to 1002 instructions, more than the limit of 1000 (each repetition of a counted repeat such as {100} adds its own)'],
  ['a flag Dgraph does not have', '/a/g', 'Item.text regexp: flag "g" is not allowed (the only flag is i, for case-insensitive)'],
  ['no slashes', 'a+', 'Item.text regexp: expected a regular expression written /pattern/ or /pattern/i, got "a+"'],
])('refuses %s with BAD_USER_INPUT', async (_name, pattern, message) => {
  const body = await api.raw(`{ queryItem(filter: { text: { regexp: "${pattern}" } }) { sku } }`);
  expect(body.errors).toEqual([expect.objectContaining({ message, extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
  expect(body.data).toEqual({ queryItem: null });
});
