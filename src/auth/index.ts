export { AuthenticationError, AuthorizationError, AuthRuleError, KeySetUnavailableError } from './errors.js';
export { ANONYMOUS, authenticateRequest, tokenFrom, verifyRequestToken, type AuthResult, type HeaderSource } from './token.js';
export { createAuthPlugin } from './plugin.js';
export { authOf, type AuthContext } from './request-auth.js';
export { compileAuthRule, isMatchNothingPlan, matchAllPlan, matchNothingPlan } from './compile-rule.js';
export { AUTH_OPERATIONS, authPlan, isUnrestricted, rulesFor, type AuthOperation } from './type-rules.js';
export { parseRule, type ParsedRule, type QueryRule, type RoleRule } from './rule-document.js';
export { checkAuthRules } from './check-rules.js';
export { DEFAULT_KEY_SET_POLICY, KeySets, type KeySetPolicy } from './keys/remote-key-set.js';
