import type { DirectiveNode, FieldDefinitionNode } from 'graphql';
import { rejectionReason, type FieldDirectiveName } from './directive-names.js';
import { describeValue, directiveArguments, nameValueOf, stringValueOf, type Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';

/**
 * A field's directives by name, each at most once. Unknown and misplaced directives are reported here;
 * the meaning of each is read by the field builder.
 */
export function fieldDirectivesOf(
  field: FieldDefinitionNode,
  allowed: readonly FieldDirectiveName[],
  place: string,
  errors: ErrorSink,
  describe: Describe,
): Map<FieldDirectiveName, DirectiveNode> {
  const found = new Map<FieldDirectiveName, DirectiveNode>();
  for (const directive of field.directives ?? []) {
    const name = directive.name.value;
    if (!(allowed as readonly string[]).includes(name)) {
      errors.at(describe(rejectionReason(name, place, allowed)), directive);
    } else if (found.has(name as FieldDirectiveName)) {
      errors.at(describe(`@${name} is repeated`), directive);
    } else {
      found.set(name as FieldDirectiveName, directive);
    }
  }
  return found;
}

/** A directive that takes no arguments (`@id`, `@external`, `@lambda`): reports any that are given. */
export function checkNoArguments(directive: DirectiveNode, errors: ErrorSink, describe: Describe): void {
  directiveArguments(directive, { allowed: [] }, errors, describe);
}

/** `@hasInverse(field: name)`: the partner field's name. */
export function inverseFieldOf(directive: DirectiveNode, errors: ErrorSink, describe: Describe): string | undefined {
  const argument = directiveArguments(directive, { allowed: ['field'], required: ['field'] }, errors, describe).get('field');
  if (!argument) return undefined;
  const name = nameValueOf(argument.value);
  if (name === undefined || name === '') {
    errors.at(describe(`@hasInverse(field:) must name a field, found ${describeValue(argument.value)}`), argument.value);
  }
  return name || undefined;
}

/** `@deprecated(reason: "...")`: the reason, GraphQL's default when none is given. */
export function deprecationReasonOf(directive: DirectiveNode, errors: ErrorSink, describe: Describe): string {
  const argument = directiveArguments(directive, { allowed: ['reason'] }, errors, describe).get('reason');
  if (!argument) return 'No longer supported';
  const reason = stringValueOf(argument.value);
  if (reason === undefined) errors.at(describe(`@deprecated(reason:) must be a string, found ${describeValue(argument.value)}`), argument.value);
  return reason ?? 'No longer supported';
}

/**
 * The field names of a federation `fields: "a b"` selection (`@provides`, `@requires`, `@key`). Nested
 * selections (`a { b }`) are not supported: federation v1 here works on fields of the type itself.
 */
export function fieldSelectionOf(
  directive: DirectiveNode,
  errors: ErrorSink,
  describe: Describe,
): { names: string[]; node: DirectiveNode } | undefined {
  const at = `@${directive.name.value}`;
  const argument = directiveArguments(directive, { allowed: ['fields'], required: ['fields'] }, errors, describe).get('fields');
  if (!argument) return undefined;
  const text = stringValueOf(argument.value);
  if (text === undefined) {
    errors.at(describe(`${at}(fields:) must be a string like "id", found ${describeValue(argument.value)}`), argument.value);
    return undefined;
  }
  if (/[{}()]/.test(text)) {
    errors.at(describe(`${at}(fields: ${JSON.stringify(text)}): nested selections are not supported; name fields of the type only`), argument.value);
    return undefined;
  }
  const names = text.split(/[\s,]+/).filter((name) => name !== '');
  if (names.length === 0) {
    errors.at(describe(`${at}(fields: "") names no field`), argument.value);
    return undefined;
  }
  const invalid = names.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  if (invalid !== undefined) {
    errors.at(describe(`${at}(fields: ${JSON.stringify(text)}): "${invalid}" is not a field name`), argument.value);
    return undefined;
  }
  return { names, node: directive };
}
