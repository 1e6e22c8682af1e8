import { pluck, useService } from './harness';

/** Every filter operator of the generated API, over HTTP, on one type with a field per index kind. */

const SCHEMA = `
enum Priority { LOW MEDIUM HIGH }

type Item {
  id: ID!
  sku: String! @id
  code: String @search(by: [hash])
  name: String @search(by: [exact])
  labels: String @search(by: [term])
  body: String @search(by: [fulltext])
  pattern: String @search(by: [regexp])
  fuzzy: String @search(by: [trigram])
  summary: String @search(by: [exact, term, fulltext, trigram])
  quantity: Int @search
  views: Int64 @search
  price: Float @search
  listedAt: DateTime @search
  active: Boolean @search
  priority: Priority @search(by: [hash])
  level: Priority @search(by: [exact])
}
`;

const api = useService(SCHEMA);
const ids: Record<string, string> = {};

beforeAll(async () => {
  const result = await api.data(`mutation {
    addItem(input: [
      { sku: "a1", code: "alpha", name: "Apple", labels: "red fruit sweet", body: "The runners were running in the park",
        pattern: "Hello World", fuzzy: "photography studio", summary: "Quick brown fox", quantity: 5, views: 5000000000,
        price: 1.5, listedAt: "2024-01-01T00:00:00Z", active: true, priority: LOW, level: LOW },
      { sku: "b2", code: "beta", name: "Banana", labels: "yellow fruit", body: "A quick guide to the cooking of rice",
        pattern: "hello there", fuzzy: "photograph album", summary: "Lazy dog sleeps", quantity: 10, views: "6000000000",
        price: 0.25, listedAt: "2024-06-15T12:30:00+02:00", active: false, priority: HIGH, level: HIGH },
      { sku: "c3", code: "gamma", name: "Cherry", labels: "Red small", body: "Cooked meals for the week",
        pattern: "HELLO", fuzzy: "telegraph", summary: "Brown bread", quantity: 20, views: 10,
        price: 3.75, listedAt: "2025-03-01T00:00:00Z", active: true, priority: MEDIUM, level: MEDIUM },
      { sku: "d4", code: "delta", name: "Date", active: false }
    ]) { item { id sku } }
  }`);
  for (const item of result.addItem.item) ids[item.sku] = item.id;
});

/** The skus `queryItem(filter)` returns, in sku order. */
async function skus(filter: string): Promise<string[]> {
  const result = await api.data(`{ queryItem(filter: ${filter}, order: { asc: sku }) { sku } }`);
  return pluck(result.queryItem, 'sku');
}

test('hash: eq and in', async () => {
  expect(await skus('{ code: { eq: "beta" } }')).toEqual(['b2']);
  expect(await skus('{ code: { in: ["alpha", "gamma", "zeta"] } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ code: { eq: "Beta" } }')).toEqual([]);
});

test('exact: eq, in, le, lt, ge, gt, between', async () => {
  expect(await skus('{ name: { eq: "Cherry" } }')).toEqual(['c3']);
  expect(await skus('{ name: { in: ["Apple", "Date"] } }')).toEqual(['a1', 'd4']);
  expect(await skus('{ name: { le: "Banana" } }')).toEqual(['a1', 'b2']);
  expect(await skus('{ name: { lt: "Banana" } }')).toEqual(['a1']);
  expect(await skus('{ name: { ge: "Cherry" } }')).toEqual(['c3', 'd4']);
  expect(await skus('{ name: { gt: "Cherry" } }')).toEqual(['d4']);
  expect(await skus('{ name: { between: { min: "B", max: "Cz" } } }')).toEqual(['b2', 'c3']);
});

test('term: allofterms and anyofterms, case-insensitive', async () => {
  expect(await skus('{ labels: { allofterms: "fruit red" } }')).toEqual(['a1']);
  expect(await skus('{ labels: { allofterms: "RED" } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ labels: { anyofterms: "yellow small" } }')).toEqual(['b2', 'c3']);
  // A term is a whole word: "fru" is not "fruit".
  expect(await skus('{ labels: { anyofterms: "fru" } }')).toEqual([]);
});

test('fulltext: a match that needs stemming', async () => {
  // "running" and the query "runs" both stem to "run"; "runners" does not, so only the stem links them.
  expect(await skus('{ body: { alloftext: "runs" } }')).toEqual(['a1']);
  // "cooking" and "Cooked" both stem to "cook".
  expect(await skus('{ body: { alloftext: "cook" } }')).toEqual(['b2', 'c3']);
  expect(await skus('{ body: { anyoftext: "weeks rices" } }')).toEqual(['b2', 'c3']);
  expect(await skus('{ body: { alloftext: "cooked rice" } }')).toEqual(['b2']);
});

test('fulltext: a match that needs stop-word removal', async () => {
  // The queries' stop words ("of", "with", "for", "at", "a") do not occur in the matching texts, so each
  // alloftext matches only because they are dropped: it asks for "park"/"runner", and "guide"/"rice".
  expect(await skus('{ body: { alloftext: "runners at a park" } }')).toEqual(['a1']);
  expect(await skus('{ body: { alloftext: "guide with rice for cooking" } }')).toEqual(['b2']);
  // Stop words in the stored text are not indexed: only stop words, every text contains some, nothing matches.
  expect(await skus('{ body: { anyoftext: "the of for" } }')).toEqual([]);
});

test('regexp: with and without the i flag', async () => {
  expect(await skus('{ pattern: { regexp: "/^hello/" } }')).toEqual(['b2']);
  expect(await skus('{ pattern: { regexp: "/^hello/i" } }')).toEqual(['a1', 'b2', 'c3']);
  expect(await skus('{ pattern: { regexp: "/world$/i" } }')).toEqual(['a1']);
});

test('trigram: regexp over a trigram-indexed field', async () => {
  expect(await skus('{ fuzzy: { regexp: "/graph/" } }')).toEqual(['a1', 'b2', 'c3']);
  expect(await skus('{ fuzzy: { regexp: "/^PHOTOGRAPH /i" } }')).toEqual(['b2']);
  expect(await skus('{ fuzzy: { regexp: "/photo.*y/" } }')).toEqual(['a1']);
});

test('a bad regular expression is an error naming the field', async () => {
  expect(await api.errors('{ queryItem(filter: { pattern: { regexp: "^hello" } }) { sku } }')).toEqual([
    { code: 'BAD_USER_INPUT', message: 'Item.pattern regexp: expected a regular expression written /pattern/ or /pattern/i, got "^hello"' },
  ]);
});

test('Int: eq, in, le, lt, ge, gt, between', async () => {
  expect(await skus('{ quantity: { eq: 10 } }')).toEqual(['b2']);
  expect(await skus('{ quantity: { in: [5, 20, 99] } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ quantity: { le: 10 } }')).toEqual(['a1', 'b2']);
  expect(await skus('{ quantity: { lt: 10 } }')).toEqual(['a1']);
  expect(await skus('{ quantity: { ge: 10 } }')).toEqual(['b2', 'c3']);
  expect(await skus('{ quantity: { gt: 10 } }')).toEqual(['c3']);
  expect(await skus('{ quantity: { between: { min: 6, max: 20 } } }')).toEqual(['b2', 'c3']);
});

test('Int64: values beyond 32 bits compare as numbers', async () => {
  expect(await skus('{ views: { gt: 4294967296 } }')).toEqual(['a1', 'b2']);
  expect(await skus('{ views: { eq: "6000000000" } }')).toEqual(['b2']);
  expect(await skus('{ views: { in: [10, 5000000000] } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ views: { le: 5000000000 } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ views: { lt: 5000000000 } }')).toEqual(['c3']);
  expect(await skus('{ views: { ge: 5000000000 } }')).toEqual(['a1', 'b2']);
  expect(await skus('{ views: { between: { min: 1, max: 5000000000 } } }')).toEqual(['a1', 'c3']);
  const result = await api.data('{ getItem(sku: "b2") { views } }');
  expect(result.getItem.views).toBe(6000000000);
});

test('Float: eq, in, le, lt, ge, gt, between', async () => {
  expect(await skus('{ price: { eq: 0.25 } }')).toEqual(['b2']);
  expect(await skus('{ price: { in: [1.5, 3.75] } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ price: { le: 1.5 } }')).toEqual(['a1', 'b2']);
  expect(await skus('{ price: { lt: 1.5 } }')).toEqual(['b2']);
  expect(await skus('{ price: { ge: 1.5 } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ price: { gt: 1.5 } }')).toEqual(['c3']);
  expect(await skus('{ price: { between: { min: 1, max: 4 } } }')).toEqual(['a1', 'c3']);
});

test('DateTime: eq, in, le, lt, ge, gt, between, with time zones normalised', async () => {
  expect(await skus('{ listedAt: { eq: "2024-06-15T10:30:00Z" } }')).toEqual(['b2']);
  expect(await skus('{ listedAt: { in: ["2024-01-01T01:00:00+01:00", "2025-03-01T00:00:00Z"] } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ listedAt: { le: "2024-06-15T10:30:00Z" } }')).toEqual(['a1', 'b2']);
  expect(await skus('{ listedAt: { lt: "2024-06-15T10:30:00Z" } }')).toEqual(['a1']);
  expect(await skus('{ listedAt: { ge: "2024-06-15T10:30:00Z" } }')).toEqual(['b2', 'c3']);
  expect(await skus('{ listedAt: { gt: "2024-06-15T12:00:00+02:00" } }')).toEqual(['b2', 'c3']);
  expect(await skus('{ listedAt: { between: { min: "2024-02-01T00:00:00Z", max: "2025-12-31T00:00:00Z" } } }')).toEqual(['b2', 'c3']);
  const result = await api.data('{ getItem(sku: "b2") { listedAt } }');
  expect(result.getItem.listedAt).toBe('2024-06-15T10:30:00Z');
});

test('Boolean: true and false', async () => {
  expect(await skus('{ active: true }')).toEqual(['a1', 'c3']);
  expect(await skus('{ active: false }')).toEqual(['b2', 'd4']);
});

test('enums: hash (eq, in) and exact (comparisons by value name, as stored)', async () => {
  expect(await skus('{ priority: { eq: HIGH } }')).toEqual(['b2']);
  expect(await skus('{ priority: { in: [LOW, MEDIUM] } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ level: { eq: MEDIUM } }')).toEqual(['c3']);
  expect(await skus('{ level: { in: [HIGH, LOW] } }')).toEqual(['a1', 'b2']);
  // Enum values are stored as their names, so exact compares names: HIGH < LOW < MEDIUM.
  expect(await skus('{ level: { lt: LOW } }')).toEqual(['b2']);
  expect(await skus('{ level: { ge: LOW } }')).toEqual(['a1', 'c3']);
  expect(await api.errors('{ queryItem(filter: { priority: { eq: URGENT } }) { sku } }')).toEqual([
    { code: 'GRAPHQL_VALIDATION_FAILED', message: 'Value "URGENT" does not exist in "Priority" enum.' },
  ]);
});

test('several indexes on one field: every index adds its operators, and they combine', async () => {
  expect(await skus('{ summary: { eq: "Brown bread" } }')).toEqual(['c3']);
  expect(await skus('{ summary: { lt: "M" } }')).toEqual(['b2', 'c3']);
  expect(await skus('{ summary: { allofterms: "BROWN" } }')).toEqual(['a1', 'c3']);
  expect(await skus('{ summary: { alloftext: "sleeping dogs" } }')).toEqual(['b2']);
  expect(await skus('{ summary: { regexp: "/^quick/i" } }')).toEqual(['a1']);
  expect(await skus('{ summary: { anyofterms: "brown dog", regexp: "/^B/" } }')).toEqual(['c3']);
});

test('an operator the field\'s indexes do not give is refused by the schema', async () => {
  expect(await api.errors('{ queryItem(filter: { code: { lt: "b" } }) { sku } }')).toEqual([
    { code: 'GRAPHQL_VALIDATION_FAILED', message: 'Field "lt" is not defined by type "StringHashFilter".' },
  ]);
});

test('and, or, not', async () => {
  expect(await skus('{ and: [{ active: true }, { quantity: { gt: 5 } }] }')).toEqual(['c3']);
  expect(await skus('{ or: [{ code: { eq: "alpha" } }, { code: { eq: "delta" } }] }')).toEqual(['a1', 'd4']);
  // Dgraph reads `or` beside other keys as infix: active OR code beta.
  expect(await skus('{ active: true, or: { code: { eq: "beta" } } }')).toEqual(['a1', 'b2', 'c3']);
  expect(await skus('{ not: { active: true } }')).toEqual(['b2', 'd4']);
  expect(await skus('{ not: { or: [{ quantity: { lt: 10 } }, { price: { gt: 3 } }] }, has: quantity }')).toEqual(['b2']);
  expect(await skus('{ and: { labels: { anyofterms: "fruit" } }, not: { and: [{ active: false }] } }')).toEqual(['a1']);
});

test('has: present fields only, combined with not', async () => {
  expect(await skus('{ has: [body] }')).toEqual(['a1', 'b2', 'c3']);
  expect(await skus('{ has: [labels, quantity] }')).toEqual(['a1', 'b2', 'c3']);
  expect(await skus('{ not: { has: labels } }')).toEqual(['d4']);
});

test('id filter, alone and with other conditions', async () => {
  expect(await skus(`{ id: ["${ids.a1}", "${ids.c3}"] }`)).toEqual(['a1', 'c3']);
  expect(await skus(`{ id: ["${ids.a1}", "${ids.c3}"], quantity: { gt: 5 } }`)).toEqual(['c3']);
  expect(await skus(`{ not: { id: ["${ids.a1}"] } }`)).toEqual(['b2', 'c3', 'd4']);
  expect(await skus('{ id: ["000000000000000000000000"] }')).toEqual([]);
});
