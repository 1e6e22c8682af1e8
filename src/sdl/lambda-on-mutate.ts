import { print, Kind, type DirectiveNode } from 'graphql';
import { directiveArguments, type Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';
import type { LambdaOnMutate } from './model.js';

const KINDS = ['add', 'update', 'delete'] as const;

/**
 * `@lambdaOnMutate(add: Boolean, update: Boolean, delete: Boolean)` on a type or an interface (Dgraph's
 * rule, graphql/schema/rules.go `lambdaOnMutateValidation`): which committed mutations of the type call
 * the lambda script's webhook `Type.add|update|delete`. An argument left out is false. A value other
 * than true/false is refused with Dgraph's message, at the argument.
 */
export function lambdaOnMutateOf(typeName: string, directive: DirectiveNode, errors: ErrorSink, describe: Describe): LambdaOnMutate {
  const settings: LambdaOnMutate = { add: false, update: false, delete: false };
  const args = directiveArguments(directive, { allowed: KINDS }, errors, describe);
  for (const kind of KINDS) {
    const argument = args.get(kind);
    if (!argument) continue;
    if (argument.value.kind === Kind.BOOLEAN) {
      settings[kind] = argument.value.value;
    } else {
      errors.at(`Type ${typeName}; ${kind} argument in @lambdaOnMutate directive can only be true/false, found: \`${print(argument.value)}\`.`, argument);
    }
  }
  return settings;
}

/** Whether any kind of mutation of the type calls a webhook. */
export function hasWebhooks(settings: LambdaOnMutate | undefined): boolean {
  return settings !== undefined && (settings.add || settings.update || settings.delete);
}
