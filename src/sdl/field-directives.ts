import type { ConstDirectiveNode, DirectiveNode } from 'graphql';
import { REPEATABLE_DIRECTIVES, rejectionReason } from './directive-names.js';
import { describeValue, directiveArguments, nameValueOf, stringValueOf, type Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';
import { composedDirectiveAllows, type FederationLink } from './federation-link.js';
import { parseFieldSelection, printFieldSelection } from './field-selection.js';
import type { FieldSelection } from './model.js';

/** The directives at one place, by their standard names (federation imports and renames resolved). */
export interface CollectedDirectives<Name extends string> {
  /** Directives that stand at most once. */
  byName: Map<Name, DirectiveNode>;
  /** Repeatable ones (`@tag`), in order. */
  repeated: Array<{ name: Name; node: DirectiveNode }>;
  /** Usages of directives composed with `@composeDirective`. */
  composed: DirectiveNode[];
}

/**
 * A place's directives by standard name. Unknown, misplaced and repeated directives are reported here;
 * the meaning of each is read by the type or field builder.
 */
export function collectDirectives<Name extends string>(
  directives: readonly ConstDirectiveNode[],
  where: { allowed: readonly Name[]; place: string; location: 'OBJECT' | 'INTERFACE' | 'FIELD_DEFINITION'; link: FederationLink },
  errors: ErrorSink,
  describe: Describe,
): CollectedDirectives<Name> {
  const collected: CollectedDirectives<Name> = { byName: new Map(), repeated: [], composed: [] };
  for (const directive of directives) {
    const reading = where.link.read(directive.name.value);
    if ('problem' in reading) {
      errors.at(describe(reading.problem), directive);
      continue;
    }
    const name = reading.name;
    if (reading.ignored) continue;
    if (reading.composed) {
      if (composedDirectiveAllows(where.link.settings, name, where.location)) collected.composed.push(directive);
      else errors.at(describe(`@${name} is not allowed on ${where.place} (its definition does not list ${where.location})`), directive);
    } else if (!(where.allowed as readonly string[]).includes(name)) {
      errors.at(describe(rejectionReason(name, where.place, where.allowed)), directive);
    } else if (REPEATABLE_DIRECTIVES.includes(name)) {
      collected.repeated.push({ name: name as Name, node: directive });
    } else if (collected.byName.has(name as Name)) {
      errors.at(describe(`@${directive.name.value} is repeated`), directive);
    } else {
      collected.byName.set(name as Name, directive);
    }
  }
  return collected;
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
 * The selection of a federation `fields:` argument (`@provides`, `@requires`, `@key`). Federation 1 here
 * works on fields of the type itself; Federation 2 allows nested selections (`sku variation { id }`).
 */
export function fieldSelectionOf(
  directive: DirectiveNode,
  nested: boolean,
  errors: ErrorSink,
  describe: Describe,
  extraArguments: readonly string[] = [],
): { names: string[]; selection: FieldSelection[]; text: string } | undefined {
  const at = `@${directive.name.value}`;
  const argument = directiveArguments(directive, { allowed: ['fields', ...extraArguments], required: ['fields'] }, errors, describe).get('fields');
  if (!argument) return undefined;
  const text = stringValueOf(argument.value);
  if (text === undefined) {
    errors.at(describe(`${at}(fields:) must be a string like "id", found ${describeValue(argument.value)}`), argument.value);
    return undefined;
  }
  if (!nested && /[{}()]/.test(text)) {
    errors.at(describe(`${at}(fields: ${JSON.stringify(text)}): nested selections are not supported; name fields of the type only`), argument.value);
    return undefined;
  }
  if (text.trim() === '') {
    errors.at(describe(`${at}(fields: "") names no field`), argument.value);
    return undefined;
  }
  const parsed = parseFieldSelection(text, nested);
  if ('problem' in parsed) {
    errors.at(describe(`${at}(fields: ${JSON.stringify(text)}) ${parsed.problem}`), argument.value);
    return undefined;
  }
  return { names: parsed.selection.map((item) => item.name), selection: parsed.selection, text: printFieldSelection(parsed.selection) };
}
