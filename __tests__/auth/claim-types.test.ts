/** Whether a claim fits the type a rule declares for its variable, and the words that say why not. */
import { parseType } from 'graphql';
import { claimTypeProblem } from '../../src/auth/claim-types.js';

describe('claimTypeProblem', () => {
  test.each<[unknown, string, string | undefined]>([
    ['alice', 'String!', undefined],
    [42, 'String!', 'a number 42 where String! is declared'],
    [true, 'String', 'a boolean true where String is declared'],
    [{ name: 'a' }, 'String', 'an object {"name":"a"} where String is declared'],
    [['a'], 'String', 'a list ["a"] where String is declared'],
    [null, 'String!', undefined],
    [undefined, 'Int!', undefined],
    ['ADMIN', 'Role', undefined],
    [1, 'Role', 'a number 1 where Role is declared'],
    [3, 'Int', undefined],
    [3.5, 'Int', 'a number 3.5 where Int is declared'],
    ['3', 'Int', 'a string "3" where Int is declared'],
    [9007199254740991, 'Int64', undefined],
    [0.5, 'Int64', 'a number 0.5 where Int64 is declared'],
    [1.5, 'Float', undefined],
    [Number.POSITIVE_INFINITY, 'Float', 'a number null where Float is declared'],
    ['1.5', 'Float', 'a string "1.5" where Float is declared'],
    [false, 'Boolean!', undefined],
    ['true', 'Boolean', 'a string "true" where Boolean is declared'],
    [1, 'Boolean', 'a number 1 where Boolean is declared'],
    ['u1', 'ID', undefined],
    [7, 'ID!', undefined],
    [7.5, 'ID', 'a number 7.5 where ID is declared'],
    [true, 'ID', 'a boolean true where ID is declared'],
    [['a', 'b'], '[String!]!', undefined],
    ['a', '[String]', undefined],
    [[], '[Int]', undefined],
    [[null, 'a'], '[String!]', undefined],
    [['a', 1], '[String]', 'a list ["a",1] where [String] is declared'],
    [1, '[String]', 'a number 1 where [String] is declared'],
    [[[1]], '[[Int]]', undefined],
    [[['x']], '[[Int]]', 'a list [["x"]] where [[Int]] is declared'],
  ])('%j as %s', (value, declared, problem) => {
    expect(claimTypeProblem(value, parseType(declared))).toBe(problem);
  });
});
