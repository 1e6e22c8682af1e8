import { Kind, type DirectiveNode } from 'graphql';
import { describeValue, directiveArguments, type Describe } from './directive-values.js';
import { fieldMessage, type ErrorSink } from './errors.js';
import type { TypeDraft } from './types.js';

/**
 * `@id(interface: true|false)` on a field of an interface (Dgraph's meaning): `false`, the default, keeps
 * values unique per implementing type (two types may share a value); `true` makes them unique across all
 * the interface's implementing types.
 */

/** Checks the arguments of an `@id` on a String/Int/Int64 field: only `interface`, a Boolean. */
export function checkIdArguments(directive: DirectiveNode, errors: ErrorSink, describe: Describe): void {
  const argument = directiveArguments(directive, { allowed: ['interface'] }, errors, describe).get('interface');
  if (argument && argument.value.kind !== Kind.BOOLEAN) {
    errors.at(describe(`@id(interface:) must be true or false, found ${describeValue(argument.value)}`), argument.value);
  }
}

/** Whether the directive says `interface: true` (its value already checked by `checkIdArguments`). */
export function isUniqueAcrossInterface(directive: DirectiveNode): boolean {
  const value = directive.arguments?.find((argument) => argument.name.value === 'interface')?.value;
  return value?.kind === Kind.BOOLEAN && value.value;
}

/**
 * The `interface` argument has a meaning only where an interface declares the field: on a field a type
 * declares itself (not one it redeclares from an interface) it is refused, in Dgraph's wording.
 */
export function checkIdInterfaceOnType(draft: TypeDraft, drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  if (draft.kind !== 'type') return;
  for (const field of draft.ownFields) {
    const directive = field.directives.get('id');
    const argument = directive?.arguments?.find((candidate) => candidate.name.value === 'interface');
    if (!argument) continue;
    const inherited = draft.implements.some((name) => drafts.get(name)?.fieldsByName.has(field.model.name));
    if (!inherited) {
      errors.at(fieldMessage(draft.name, field.model.name, '@id field with interface argument can only be defined in interface, not in Type'), directive!);
    }
  }
}
