import { isDeepStrictEqual } from 'node:util';
import { AuthRuleError } from './errors.js';
import type { RoleRule } from './rule-document.js';
import { substitute } from './rule-values.js';

/**
 * A role check looks at the claims alone: `{ $ROLE: { eq: "ADMIN" } }`. A claim that is a list passes
 * when any of its items does. A missing claim never passes.
 */
export function evaluateRoleRule(rule: RoleRule, variables: Readonly<Record<string, unknown>>): boolean {
  const claim = variables[rule.claim];
  if (claim === undefined || claim === null) return false;
  const operand = substitute(rule.value, variables);
  if (!operand.ok) return false;
  const candidates = Array.isArray(claim) ? claim : [claim];
  const expected = operand.value;
  switch (rule.operator) {
    case 'eq':
      return candidates.some((candidate) => isDeepStrictEqual(candidate, expected)) || isDeepStrictEqual(claim, expected);
    case 'in': {
      const allowed = Array.isArray(expected) ? expected : [expected];
      return candidates.some((candidate) => allowed.some((item) => isDeepStrictEqual(candidate, item)));
    }
    case 'regexp': {
      const pattern = regexpOf(expected, rule.claim);
      return candidates.some((candidate) => typeof candidate === 'string' && pattern.test(candidate));
    }
  }
}

const REGEXP_LITERAL = /^\/(.*)\/([a-z]*)$/s;

function regexpOf(value: unknown, claim: string): RegExp {
  const literal = typeof value === 'string' ? REGEXP_LITERAL.exec(value) : null;
  if (!literal) throw new AuthRuleError(`role rule on $${claim}: regexp expects "/pattern/flags", got ${JSON.stringify(value)}`);
  try {
    return new RegExp(literal[1], literal[2]);
  } catch (error) {
    throw new AuthRuleError(`role rule on $${claim}: ${(error as Error).message}`);
  }
}
