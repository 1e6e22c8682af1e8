import { parseValue } from 'graphql';
import { AuthRuleError } from '../../src/auth/errors.js';
import { evaluateRoleRule } from '../../src/auth/role-rule.js';
import { parseRule } from '../../src/auth/rule-document.js';
import type { RoleRule } from '../../src/auth/rule-document.js';
import { substitute, type Substituted } from '../../src/auth/rule-values.js';

/** Role rules decided from the claims alone, and the substitution of claims into rule values. */

const roleRule = (text: string): RoleRule => parseRule(text) as RoleRule;
const ROLE_REGEXP_ERROR = new AuthRuleError('role rule on $ROLE: expected a regular expression written /pattern/ or /pattern/i, got "ADMIN"');

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
    ['a null claim does not pass eq: null', '{ $ROLE: { eq: null } }', { ROLE: null }, false],
    ['a null claim does not pass in: [null]', '{ $ROLE: { in: [null] } }', { ROLE: null }, false],
    ['in with a single value', '{ $ROLE: { in: "ADMIN" } }', { ROLE: 'ADMIN' }, true],
    ['in with a single value, another claim', '{ $ROLE: { in: "ADMIN" } }', { ROLE: 'OPS' }, false],
    ['eq against another claim', '{ $ROLE: { eq: $WANTED } }', { ROLE: 'A', WANTED: 'A' }, true],
    ['eq against another claim that is missing', '{ $ROLE: { eq: $WANTED } }', { ROLE: 'A' }, false],
    ['regexp from a claim that is missing', '{ $ROLE: { regexp: $PATTERN } }', { ROLE: 'A' }, false],
    ['eq on a number claim', '{ $LEVEL: { eq: 3 } }', { LEVEL: 3 }, true],
    ['eq does not convert types', '{ $LEVEL: { eq: 3 } }', { LEVEL: '3' }, false],
  ])('%s', (_name, text, claims, passes) => {
    expect(evaluateRoleRule(roleRule(text), claims)).toBe(passes);
  });
});

describe('evaluateRoleRule: a regexp that is not a valid pattern', () => {
  test.each<[string, Record<string, unknown>]>([['with the claim', { ROLE: 'x' }], ['even without the claim (so the schema check finds it)', {}]])('%s: AuthRuleError', (_case, claims) => {
    expect(() => evaluateRoleRule(roleRule('{ $ROLE: { regexp: "ADMIN" } }'), claims)).toThrow(AuthRuleError);
    expect(() => evaluateRoleRule(roleRule('{ $ROLE: { regexp: "ADMIN" } }'), claims)).toThrow(ROLE_REGEXP_ERROR);
  });
});

describe('substitute: claims into rule values', () => {
  test.each<[string, string, Record<string, unknown>, unknown]>([
    ['an Int', '42', {}, { ok: true, value: 42 }],
    ['a Float', '1.5', {}, { ok: true, value: 1.5 }],
    ['a String', '"text"', {}, { ok: true, value: 'text' }],
    ['an enum value', 'ADMIN', {}, { ok: true, value: 'ADMIN' }],
    ['true', 'true', {}, { ok: true, value: true }],
    ['false', 'false', {}, { ok: true, value: false }],
    ['null', 'null', {}, { ok: true, value: null }],
    ['a list mixing literals and claims', '[1, $A, "b"]', { A: 'a' }, { ok: true, value: [1, 'a', 'b'] }],
    ['nested objects', '{ a: { b: [$A] }, c: 2 }', { A: 'x' }, { ok: true, value: { a: { b: ['x'] }, c: 2 } }],
    ['a claim that is an object', '$A', { A: { deep: [1] } }, { ok: true, value: { deep: [1] } }],
    ['a missing claim deep inside an object', '{ a: { b: [$A] } }', {}, { ok: false, missing: 'A' }],
    ['a claim', '$USER', { USER: 'alice' }, { ok: true, value: 'alice' }],
    ['a missing claim is reported', '$USER', {}, { ok: false, missing: 'USER' }],
    ['a null claim is reported as missing, never used as null (which would turn eq into "no value")', '$USER', { USER: null }, { ok: false, missing: 'USER' }],
    ['a null claim inside a list', '[$USER, "x"]', { USER: null }, { ok: false, missing: 'USER' }],
    ['false and 0 are values', '[$A, $B]', { A: false, B: 0 }, { ok: true, value: [false, 0] }],
    ['an object with a claim', '{ eq: $USER }', { USER: 'bob' }, { ok: true, value: { eq: 'bob' } }],
  ])('%s', (_name, literal, claims, expected) => {
    expect(substitute(parseValue(literal), claims)).toEqual(expected);
  });

  test('a missing claim takes the declared default, a present one does not', () => {
    const defaults = new Map([['USER', parseValue('"guest"')]]);
    expect(substitute(parseValue('{ eq: $USER }'), {}, defaults)).toEqual({ ok: true, value: { eq: 'guest' } });
    expect(substitute(parseValue('$USER'), { USER: 'alice' }, defaults)).toEqual({ ok: true, value: 'alice' });
    expect(substitute(parseValue('$OTHER'), {}, defaults)).toEqual({ ok: false, missing: 'OTHER' });
  });

  test('a null claim takes the declared default', () => {
    expect(substitute(parseValue('$USER'), { USER: null }, new Map([['USER', parseValue('"guest"')]]))).toEqual({ ok: true, value: 'guest' });
  });

  test('only a missing claim is reported as missing: another error (a stack overflow on a deep list) propagates', () => {
    // Called deeper and deeper in the stack until converting the 1,000-deep list no longer fits in it.
    const deepList = parseValue(`${'['.repeat(1000)}1${']'.repeat(1000)}`);
    const substitutedAt = (depth: number): Substituted => (depth === 0 ? substitute(deepList, {}) : substitutedAt(depth - 1));
    const outcomes: string[] = [];
    for (let depth = 0; depth < 50_000 && !outcomes.includes('RangeError'); depth += 250) {
      try {
        const result = substitutedAt(depth);
        outcomes.push(result.ok ? 'ok' : `missing ${result.missing}`);
      } catch (error) {
        outcomes.push(error instanceof RangeError ? 'RangeError' : String(error));
      }
    }
    expect(outcomes[0]).toBe('ok');
    expect(outcomes.at(-1)).toBe('RangeError');
    expect(outcomes.filter((outcome) => outcome !== 'ok' && outcome !== 'RangeError')).toEqual([]);
  });
});
