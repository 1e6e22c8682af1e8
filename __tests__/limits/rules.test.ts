import { maxAliasesRule } from '../../src/limits/rules/max-aliases';
import { maxDepthRule } from '../../src/limits/rules/max-depth';
import { maxDirectivesRule } from '../../src/limits/rules/max-directives';
import { maxInputDepthRule } from '../../src/limits/rules/max-input-depth';
import { queryCostRule } from '../../src/limits/rules/query-cost';
import { expectErrors, expectValid } from './harness';

const PAGES = { defaultPageSize: 1000, maxPageSize: 10000 };

const RAISE_DEPTH = 'raise it with --max-depth or MAX_DEPTH';

describe('maxDepthRule', () => {
  test.each<[string, string]>([
    ['at the limit', '{ queryMission { crew { id } } }'],
    ['fragments at the limit', 'query Q { queryMission { ...M } } fragment M on Mission { crew { id } }'],
    ['an inline fragment adds no depth', '{ queryMission { ... on Mission { crew { id } } } }'],
    ['a fragment cycle is left to NoFragmentCyclesRule', '{ queryMission { ...A } } fragment A on Mission { ...B } fragment B on Mission { ...A }'],
    ['an unknown fragment is left to KnownFragmentNamesRule', '{ queryMission { ...Nope } }'],
  ])('%s: valid', (_name, query) => {
    expectValid(maxDepthRule(3), query);
  });

  test.each<[string, string, string, number]>([
    ['one level too deep', '{ queryMission { crew { missions { id } } } }', 'the anonymous query', 4],
    ['through a fragment', 'query Deep { queryMission { ...M } }\nfragment M on Mission { crew { missions { id } } }', 'query Deep', 4],
    ['through nested fragments', 'query Deep { queryMission { ...M } }\nfragment M on Mission { crew { ...A } }\nfragment A on Astronaut { missions { crew { id } } }', 'query Deep', 5],
  ])('%s: refused with the depth found', (_name, query, label, depth) => {
    expect(expectErrors(maxDepthRule(3), query)).toEqual([
      { message: `the depth of ${label} is ${depth}, over the limit 3; ${RAISE_DEPTH}`, locations: [{ line: 1, column: 1 }] },
    ]);
  });

  test('each operation of a document is measured on its own', () => {
    const query = 'query Shallow { getMission(id: "1") { id } }\nquery Deep { queryMission { crew { missions { crew { id } } } } }';
    expect(expectErrors(maxDepthRule(3), query)).toEqual([
      { message: `the depth of query Deep is 5, over the limit 3; ${RAISE_DEPTH}`, locations: [{ line: 2, column: 1 }] },
    ]);
  });
});

describe('maxAliasesRule', () => {
  test('at the limit: valid', () => {
    expectValid(maxAliasesRule(2), '{ a: getMission(id: "1") { id } b: getMission(id: "2") { id } }');
  });

  test.each<[string, string, number]>([
    ['three aliases', '{ a: getMission(id: "1") { id } b: getMission(id: "2") { id } c: tags }', 3],
    ['a fragment counts at every spread', '{ x: queryMission { ...M } y: queryMission { ...M } } fragment M on Mission { d: designation }', 4],
  ])('%s: refused', (_name, query, found) => {
    expect(expectErrors(maxAliasesRule(2), query)).toEqual([
      { message: `the number of aliases in the anonymous query is ${found}, over the limit 2; raise it with --max-aliases or MAX_ALIASES`, locations: [{ line: 1, column: 1 }] },
    ]);
  });
});

describe('maxDirectivesRule', () => {
  test('at the limit: valid', () => {
    expectValid(maxDirectivesRule(2), 'query @tag { tags @tag }');
  });

  test.each<[string, string, number]>([
    ['on the operation and fields', 'query @tag { tags @tag @tag }', 3],
    ['on spreads, inline fragments and fragment definitions', '{ queryMission { ...M @tag ... @tag { id } } } fragment M on Mission @tag { id }', 3],
    ['repeated on one field', '{ tags @tag @tag @tag @tag @tag }', 5],
  ])('%s: refused', (_name, query, found) => {
    expect(expectErrors(maxDirectivesRule(2), query)).toEqual([
      { message: `the number of directives in the anonymous query is ${found}, over the limit 2; raise it with --max-directives or MAX_DIRECTIVES`, locations: [{ line: 1, column: 1 }] },
    ]);
  });
});

describe('maxInputDepthRule', () => {
  const notChain = (levels: number) => `${'{ not: '.repeat(levels - 1)}{ designation: "x" }${' }'.repeat(levels - 1)}`;

  test.each<[string, string]>([
    ['a filter 3 deep', `{ queryMission(filter: ${notChain(3)}) { id } }`],
    ['and: [{ ... }] counts list and object', '{ queryMission(filter: { and: [{ designation: "x" }] }) { id } }'],
  ])('%s: valid at limit 3', (_name, query) => {
    expectValid(maxInputDepthRule(3), query);
  });

  test('a not chain too deep: one error at the outermost value, with the depth found', () => {
    expect(expectErrors(maxInputDepthRule(3), `{ queryMission(filter: ${notChain(10)}) { id } }`)).toEqual([
      { message: 'the nesting of objects and lists in this value is 10, over the limit 3; raise it with --max-input-depth or MAX_INPUT_DEPTH', locations: [{ line: 1, column: 24 }] },
    ]);
  });

  test('and: [{ and: [...] }] counts lists too; a shallow value beside it passes', () => {
    const query = '{ a: queryMission(filter: { and: [{ and: [{ designation: "x" }] }] }) { id } b: queryMission(filter: { not: { designation: "y" } }) { id } }';
    expect(expectErrors(maxInputDepthRule(3), query)).toEqual([
      { message: 'the nesting of objects and lists in this value is 5, over the limit 3; raise it with --max-input-depth or MAX_INPUT_DEPTH', locations: [{ line: 1, column: 27 }] },
    ]);
  });

  test('a variable default value is checked too', () => {
    expect(expectErrors(maxInputDepthRule(3), `query($f: MissionFilter = ${notChain(4)}) { queryMission(filter: $f) { id } }`)).toEqual([
      { message: 'the nesting of objects and lists in this value is 4, over the limit 3; raise it with --max-input-depth or MAX_INPUT_DEPTH', locations: [{ line: 1, column: 27 }] },
    ]);
  });
});

describe('queryCostRule', () => {
  const HINT = 'a list counts its first argument, 1000 without it, and multiplies what it selects: pass smaller first values';
  test('within the limit: valid', () => {
    expectValid(queryCostRule(2100, PAGES), '{ queryMission(first: 100) { crew(first: 10) { id } } }');
  });

  test('over the limit: refused with the estimate', () => {
    expect(expectErrors(queryCostRule(1000, PAGES), 'query Big { queryMission(first: 100) { crew(first: 10) { id } } }')).toEqual([
      { message: `the estimated cost of query Big is 1100 objects, over the limit 1000 (${HINT}); raise it with --max-cost or MAX_COST`, locations: [{ line: 1, column: 1 }] },
    ]);
  });

  test('sizes from variables count 0 here (the plugin checks them with the values)', () => {
    expectValid(queryCostRule(10, PAGES), 'query($n: Int) { queryMission(first: $n) { crew { missions { id } } } }');
  });
});
