import type { ASTVisitor, ListValueNode, ObjectValueNode, ValidationContext, ValidationRule } from 'graphql';
import { limitExceeded } from '../errors.js';

/**
 * Refuses a literal value (an argument, a variable's default) whose objects and lists nest deeper than
 * `limit`: `{ not: { not: { title: ... } } }` is 3 deep. Values are coerced, compiled to store filters and
 * matched recursively, so depth must be bounded before anything walks them. One error per outermost value,
 * at that value, with the depth found. graphql-js's `visit` walks without recursion, so counting here is
 * safe at any depth the parser accepted.
 */
export function maxInputDepthRule(limit: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let depth = 0;
    let deepest = 0;
    let outermost: ObjectValueNode | ListValueNode | undefined;
    const enter = (node: ObjectValueNode | ListValueNode) => {
      if (depth === 0) {
        outermost = node;
        deepest = 0;
      }
      depth++;
      deepest = Math.max(deepest, depth);
    };
    const leave = () => {
      depth--;
      if (depth === 0 && deepest > limit && outermost) {
        context.reportError(limitExceeded('maxInputDepth', 'the nesting of objects and lists in this value', deepest, limit, { nodes: outermost }));
      }
    };
    return {
      ObjectValue: { enter, leave },
      ListValue: { enter, leave },
    };
  };
}
