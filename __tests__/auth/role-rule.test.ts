import { parseValue } from 'graphql';
import { evaluateRoleRule } from '../../src/auth/role-rule.js';
import { parseRule } from '../../src/auth/rule-document.js';
import type { RoleRule } from '../../src/auth/rule-document.js';
import { substitute } from '../../src/auth/rule-values.js';

/** Role rules decided from the claims alone, and the substitution of claims into rule values. */

const roleRule = (text: string): RoleRule => parseRule(text) as RoleRule;

describe('evaluateRoleRule', () => {
  test.each<[string, string, Record<string, unknown>, boolean]>([
    ['eq on a single claim', '{ $ROLE: { eq: "ADMIN" } }', { ROLE: 'ADMIN' }, true],
    ['eq on another value', '{ $ROLE: { eq: "ADMIN" } }', { ROLE: 'USER' }, false],
    ['eq: any item of a list claim', '{ $ROLE: { eq: "ADMIN" } }', { ROLE: ['USER', 'ADMIN'] }, true],
    ['eq with a list: the whole list claim equals it', '{ $ROLES: { eq: ["A", "B"] } }', { ROLES: ['A', 'B'] }, true],
    ['eq with a list: another list', '{ $ROLES: { eq: ["A", "B"] } }', { ROLES: ['B', 'A'] }, false],
    ['eq with a list: a single item is not the list', '{ $ROLES: { eq: ["A", "B"] } }', { ROLES: 'A' }, false],
    ['in: the claim is one of the values', '{ $ROLE: { in: ["ADMIN", "OPS"] } }', { ROLE: 'OPS' }, true],
    ['in: an item of a list claim is one of the values', '{ $ROLE: { in: ["ADMIN", "OPS"] } }', { ROLE: ['USER', 'OPS'] }, true],
    ['in: none is', '{ $ROLE: { in: ["ADMIN", "OPS"] } }', { ROLE: ['USER'] }, false],
    ['regexp on a single claim', '{ $ROLE: { regexp: "/^ad/i" } }', { ROLE: 'Admin' }, true],
    ['regexp: some item of a list claim matches (not every)', '{ $ROLE: { regexp: "/^ADMIN$/" } }', { ROLE: ['USER', 'ADMIN'] }, true],
    ['regexp: no item matches', '{ $ROLE: { regexp: "/^ADMIN$/" } }', { ROLE: ['USER', 'GUEST'] }, false],
    ['regexp skips items that are not strings', '{ $ROLE: { regexp: "/1/" } }', { ROLE: [1, '21'] }, true],
    ['a missing claim never passes', '{ $ROLE: { eq: "ADMIN" } }', {}, false],
    ['a null claim never passes', '{ $ROLE: { in: ["ADMIN"] } }', { ROLE: null }, false],
  ])('%s', (_name, text, claims, passes) => {
    expect(evaluateRoleRule(roleRule(text), claims)).toBe(passes);
  });
});

describe('substitute: claims into rule values', () => {
  test.each<[string, string, Record<string, unknown>, unknown]>([
    ['a claim', '$USER', { USER: 'alice' }, { ok: true, value: 'alice' }],
    ['a missing claim is reported', '$USER', {}, { ok: false, missing: 'USER' }],
    ['a null claim is reported as missing, never used as null (which would turn eq into "no value")', '$USER', { USER: null }, { ok: false, missing: 'USER' }],
    ['a null claim inside a list', '[$USER, "x"]', { USER: null }, { ok: false, missing: 'USER' }],
    ['false and 0 are values', '[$A, $B]', { A: false, B: 0 }, { ok: true, value: [false, 0] }],
    ['an object with a claim', '{ eq: $USER }', { USER: 'bob' }, { ok: true, value: { eq: 'bob' } }],
  ])('%s', (_name, literal, claims, expected) => {
    expect(substitute(parseValue(literal), claims)).toEqual(expected);
  });

  test('a null claim takes the declared default', () => {
    expect(substitute(parseValue('$USER'), { USER: null }, new Map([['USER', parseValue('"guest"')]]))).toEqual({ ok: true, value: 'guest' });
  });
});
