import { MaxIntrospectionDepthRule, type ValidationRule } from 'graphql';
import { maxAliasesRule } from './rules/max-aliases.js';
import { maxDepthRule } from './rules/max-depth.js';
import { maxDirectivesRule } from './rules/max-directives.js';
import { maxInputDepthRule } from './rules/max-input-depth.js';
import { queryCostRule } from './rules/query-cost.js';
import type { PageLimits } from '../query/pagination.js';
import type { OperationLimits } from './settings.js';

/**
 * The validation rules of the operation limits, for Apollo Server's `validationRules` (run with the
 * specified rules, cached per document and schema). graphql-js's MaxIntrospectionDepthRule bounds
 * `__type { fields { type { fields ... } } }` chains, which the cost estimate does not count.
 *
 * Written here rather than taken from @escape.tech/graphql-armor: its cost limit is static (a cost per
 * object and per scalar, a factor per depth level) and ignores `first` and the page size, so it cannot
 * tell `first: 1` from an unpaged list; it has no check of the text's nesting before parsing and none of
 * variable values; its token limit is graphql-js's own `maxTokens`; and its messages would need callbacks
 * to name this service's flags. Depth, aliases and directives are a few lines each with the shared
 * fragment walk (rules/measure-selections.ts).
 */
export function operationLimitRules(limits: OperationLimits, pages: PageLimits): ValidationRule[] {
  return [
    maxDepthRule(limits.maxDepth),
    maxAliasesRule(limits.maxAliases),
    maxDirectivesRule(limits.maxDirectives),
    maxInputDepthRule(limits.maxInputDepth),
    queryCostRule(limits.maxCost, pages),
    MaxIntrospectionDepthRule,
  ];
}
