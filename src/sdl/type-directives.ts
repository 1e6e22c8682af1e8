import type { DirectiveNode } from 'graphql';
import { authRulesOf } from './auth-rules.js';
import { INTERFACE_DIRECTIVES, rejectionReason, TYPE_DIRECTIVES } from './directive-names.js';
import type { Describe } from './directive-values.js';
import type { ObjectDeclaration } from './declarations.js';
import type { ErrorSink } from './errors.js';
import { checkNoArguments, fieldSelectionOf } from './field-directives.js';
import type { AuthRules } from './model.js';


/** What the directives on a type definition say. */
export interface TypeDirectives {
  /** `@key(fields: "f")`: the key field's name and the directive, for locations. */
  key?: { field: string; directive: DirectiveNode };
  /** `@extends`, or the `extend type` spelling. */
  extended: boolean;
  auth?: AuthRules;
}

export function typeDirectivesOf(declaration: ObjectDeclaration, errors: ErrorSink, describe: Describe): TypeDirectives {
  const allowed: readonly string[] = declaration.kind === 'interface' ? INTERFACE_DIRECTIVES : TYPE_DIRECTIVES;
  const result: TypeDirectives = { extended: declaration.extendSyntax };
  const seen = new Set<string>();
  for (const directive of declaration.node.directives ?? []) {
    const name = directive.name.value;
    if (!allowed.includes(name)) {
      errors.at(describe(rejectionReason(name, declaration.kind === 'interface' ? 'an interface' : 'a type', allowed)), directive);
      continue;
    }
    if (seen.has(name)) {
      const message = name === 'key' ? 'at most one @key per type is supported' : `@${name} is repeated`;
      errors.at(describe(message), directive);
      continue;
    }
    seen.add(name);
    if (name === 'key') {
      const selection = fieldSelectionOf(directive, errors, describe);
      if (selection && selection.names.length > 1) {
        errors.at(describe(`@key(fields: "${selection.names.join(' ')}"): only one key field is supported`), directive);
      } else if (selection) {
        result.key = { field: selection.names[0], directive };
      }
    } else if (name === 'extends') {
      checkNoArguments(directive, errors, describe);
      result.extended = true;
    } else {
      result.auth = authRulesOf(directive, errors, describe);
    }
  }
  return result;
}
