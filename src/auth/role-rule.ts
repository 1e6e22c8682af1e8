import { isDeepStrictEqual } from 'node:util';
import { QueryArgumentError } from '../query/errors.js';
import { linearRegexp, parseRegexp, type LinearRegexp } from '../query/regexp.js';
import { AuthRuleError } from './errors.js';
import type { RoleRule } from './rule-document.js';
import { substitute } from './rule-values.js';

/**
 * A role check looks at the claims alone: `{ $ROLE: { eq: "ADMIN" } }`. A claim that is a list passes
 * when any of its items does. A missing claim never passes.
 */
export function evaluateRoleRule(rule: RoleRule, variables: Readonly<Record<string, unknown>>): boolean {
  const operand = substitute(rule.value, variables);
  if (!operand.ok) return false;
  const expected = operand.value;
  // Compiled before the claim is looked at, so the schema-time check (without claims) finds a bad pattern.
  const pattern = rule.operator === 'regexp' ? regexpOf(expected, rule.claim) : undefined;
  const claim = variables[rule.claim];
  if (claim === undefined || claim === null) return false;
  const candidates = Array.isArray(claim) ? claim : [claim];
  switch (rule.operator) {
    case 'eq':
      return candidates.some((candidate) => isDeepStrictEqual(candidate, expected)) || isDeepStrictEqual(claim, expected);
    case 'in': {
      const allowed = Array.isArray(expected) ? expected : [expected];
      return candidates.some((candidate) => allowed.some((item) => isDeepStrictEqual(candidate, item)));
    }
    case 'regexp':
      return candidates.some((candidate) => typeof candidate === 'string' && pattern!.test(candidate));
  }
}

/** The claim's pattern, under the same rules (and the same linear-time engine) as a `regexp` filter. */
function regexpOf(value: unknown, claim: string): LinearRegexp {
  try {
    return linearRegexp(parseRegexp(`role rule on $${claim}`, value));
  } catch (error) {
    if (error instanceof QueryArgumentError) throw new AuthRuleError(error.message);
    throw error;
  }
}
