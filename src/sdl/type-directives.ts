import { Kind, type DirectiveNode } from 'graphql';
import { authRulesOf } from './auth-rules.js';
import { allowedDirectives, type TypeDirectiveName } from './directive-names.js';
import { describeValue, type Describe } from './directive-values.js';
import type { ObjectDeclaration } from './declarations.js';
import type { ErrorSink } from './errors.js';
import type { FederationLink } from './federation-link.js';
import { federationMarksOf } from './federation-marks.js';
import { checkNoArguments, collectDirectives, fieldSelectionOf } from './field-directives.js';
import { generateSettingsOf } from './generate-directive.js';
import { lambdaOnMutateOf } from './lambda-on-mutate.js';
import type { AuthRules, FederationMarks, FieldSelection, GenerateSettings, LambdaOnMutate } from './model.js';

/** One `@key` as written: its selection, `resolvable`, and the directive for locations. */
export interface KeyDirective {
  selection: FieldSelection[];
  /** The selection in normal printed form. */
  text: string;
  resolvable: boolean;
  directive: DirectiveNode;
}

/** What the directives on a type definition say. */
export interface TypeDirectives {
  /** Every `@key` (Federation 1: at most one, of one field). */
  keys: KeyDirective[];
  /** `@extends`, or the `extend type` spelling. */
  extended: boolean;
  auth?: AuthRules;
  marks?: FederationMarks;
  /** The `@interfaceObject` directive, for locations. */
  interfaceObject?: DirectiveNode;
  generate?: GenerateSettings;
  /** `@secret` and `@dgraph`, read by sdl/secret.ts and sdl/storage-names.ts once every type is known. */
  secret?: DirectiveNode;
  dgraph?: DirectiveNode;
  /** `@withSubscription`: the type's queries are also subscriptions. */
  withSubscription?: boolean;
  /** `@lambdaOnMutate(add:, update:, delete:)`: the committed mutations that call the script's webhooks. */
  lambdaOnMutate?: LambdaOnMutate;
}

export function typeDirectivesOf(declaration: ObjectDeclaration, link: FederationLink, errors: ErrorSink, describe: Describe): TypeDirectives {
  const isInterface = declaration.kind === 'interface';
  const version = link.settings.version;
  const collected = collectDirectives<TypeDirectiveName>(
    declaration.node.directives ?? [],
    {
      allowed: allowedDirectives(isInterface ? 'interface' : 'type', version) as TypeDirectiveName[],
      place: isInterface ? 'an interface' : 'a type',
      location: isInterface ? 'INTERFACE' : 'OBJECT',
      link,
    },
    errors,
    describe,
  );
  const result: TypeDirectives = { keys: [], extended: declaration.extendSyntax };
  const keyNodes = collected.repeated.filter((item) => item.name === 'key').map((item) => item.node);
  keyNodes.forEach((directive, index) => {
    if (version === 1 && index > 0) {
      errors.at(describe('at most one @key per type is supported'), directive);
      return;
    }
    const key = keyOf(directive, version, errors, describe);
    if (key) result.keys.push(key);
  });
  const extendsDirective = collected.byName.get('extends');
  if (extendsDirective) {
    checkNoArguments(extendsDirective, errors, describe);
    result.extended = true;
  }
  const auth = collected.byName.get('auth');
  if (auth) result.auth = authRulesOf(auth, errors, describe);
  const marks = federationMarksOf(collected, link.minor, errors, describe);
  if (marks) result.marks = marks;
  const interfaceObject = collected.byName.get('interfaceObject');
  if (interfaceObject) result.interfaceObject = interfaceObject;
  const generate = collected.byName.get('generate');
  if (generate) result.generate = generateSettingsOf(generate, errors, describe);
  const secret = collected.byName.get('secret');
  if (secret) result.secret = secret;
  const dgraph = collected.byName.get('dgraph');
  if (dgraph) result.dgraph = dgraph;
  const withSubscription = collected.byName.get('withSubscription');
  if (withSubscription) {
    checkNoArguments(withSubscription, errors, describe);
    result.withSubscription = true;
  }
  const lambdaOnMutate = collected.byName.get('lambdaOnMutate');
  if (lambdaOnMutate) result.lambdaOnMutate = lambdaOnMutateOf(declaration.name, lambdaOnMutate, errors, describe);
  return result;
}

function keyOf(directive: DirectiveNode, version: 1 | 2, errors: ErrorSink, describe: Describe): KeyDirective | undefined {
  const selection = fieldSelectionOf(directive, version === 2, errors, describe, version === 2 ? ['resolvable'] : []);
  if (!selection) return undefined;
  if (version === 1 && selection.names.length > 1) {
    errors.at(describe(`@key(fields: "${selection.names.join(' ')}"): only one key field is supported`), directive);
    return undefined;
  }
  let resolvable = true;
  const resolvableNode = directive.arguments?.find((argument) => argument.name.value === 'resolvable');
  if (resolvableNode) {
    if (resolvableNode.value.kind !== Kind.BOOLEAN) {
      errors.at(describe(`@${directive.name.value}(resolvable:) must be true or false, found ${describeValue(resolvableNode.value)}`), resolvableNode.value);
    } else {
      resolvable = resolvableNode.value.value;
    }
  }
  return { selection: selection.selection, text: selection.text, resolvable, directive };
}
