import { Kind, type ConstDirectiveNode, type FieldDefinitionNode, type NameNode, type NamedTypeNode } from 'graphql';
import { REMOTE_DIRECTIVE, type Declarations, type RemoteDeclaration } from './declarations.js';
import { describeValue, directiveArguments, stringValueOf, type Describe } from './directive-values.js';
import { fieldMessage, locationOf, typeMessage, type ErrorSink } from './errors.js';
import { isIgnoredDirective, type FederationLink } from './federation-link.js';
import { deprecationReasonOf } from './field-directives.js';
import type { NameKind } from './fields.js';
import type { ArgumentModel, RemoteFieldModel, RemoteTypeModel } from './model.js';
import { isReservedWord, reservedFieldNameMessage } from './reserved-names.js';
import { shapeOf } from './type-ref.js';
import type { TypeDraft } from './types.js';

/**
 * Dgraph's `@remote` types, interfaces and unions: what `@custom`/`@lambda` fields answer. They are never
 * stored, so they get no operations, filters, orders or inputs, and they free the names those would take.
 * Dgraph's rules (graphql/schema/rules.go), in its wording:
 * - a `@remote` type cannot also have `@auth`, `@withSubscription`, `@key` or `@extends`;
 * - its fields cannot be `@custom`/`@lambda` or have a `@default`; `@remoteResponse(name:)` maps a field to
 *   another key of the remote answer and stands only on fields of `@remote` types;
 * - a `@remote` type implements `@remote` interfaces only, and a stored type none;
 * - a stored type's field of a `@remote` type must be `@custom`/`@lambda` (nothing stores it).
 */

const REMOTE_RESPONSE = 'remoteResponse';
/** What stands with `@remote` on a type, and why the others cannot. */
const CONFLICTING = ['auth', 'withSubscription'];
const FIELD_DIRECTIVES = [REMOTE_RESPONSE, 'deprecated'];

export function remoteTypeModelsOf(
  declarations: Declarations,
  kindOf: (name: string) => NameKind | undefined,
  link: FederationLink,
  errors: ErrorSink,
): Map<string, RemoteTypeModel> {
  const models = new Map<string, RemoteTypeModel>();
  for (const declaration of declarations.remote.values()) {
    checkTypeDirectives(declaration, link, errors);
    const node = declaration.node;
    const model: RemoteTypeModel = {
      name: declaration.name,
      kind: declaration.kind,
      fields: node.kind === Kind.UNION_TYPE_DEFINITION ? [] : remoteFieldsOf(declaration.name, node.fields ?? [], kindOf, link, errors),
      implements: node.kind === Kind.UNION_TYPE_DEFINITION ? [] : remoteInterfacesOf(declaration, node.interfaces ?? [], declarations, errors),
      members: node.kind === Kind.UNION_TYPE_DEFINITION ? unionMembersOf(node.name, node.types ?? [], kindOf, errors) : [],
      loc: locationOf(node.name),
    };
    if (node.kind !== Kind.UNION_TYPE_DEFINITION && model.fields.length === 0) errors.at(typeMessage(model.name, 'a type needs at least one field'), node.name);
    if ('description' in node && node.description) model.description = node.description.value;
    models.set(model.name, model);
  }
  for (const model of models.values()) inheritRemoteInterfaceFields(model, models);
  return models;
}

function checkTypeDirectives(declaration: RemoteDeclaration, link: FederationLink, errors: ErrorSink): void {
  const { name, node } = declaration;
  if (node.kind === Kind.OBJECT_TYPE_EXTENSION) errors.at(typeMessage(name, '@remote directive cannot be defined with @extends directive'), node.name);
  for (const directive of node.directives ?? []) {
    const directiveName = directive.name.value;
    if (directiveName === REMOTE_DIRECTIVE || isIgnoredDirective(link, directiveName)) continue;
    if (CONFLICTING.includes(directiveName)) {
      errors.at(typeMessage(name, `cannot have both @${directiveName} and @remote directive`), node.name);
    } else if (directiveName === 'key' || directiveName === 'extends') {
      errors.at(typeMessage(name, `@remote directive cannot be defined with @${directiveName} directive`), directive);
    } else {
      errors.at(typeMessage(name, `@${directiveName} is not allowed on a @remote type: it is not stored, only answered by @custom/@lambda fields`), directive);
    }
  }
}

function remoteFieldsOf(
  owner: string,
  nodes: readonly FieldDefinitionNode[],
  kindOf: (name: string) => NameKind | undefined,
  link: FederationLink,
  errors: ErrorSink,
): RemoteFieldModel[] {
  const fields: RemoteFieldModel[] = [];
  for (const node of nodes) {
    const name = node.name.value;
    const describe: Describe = (message) => fieldMessage(owner, name, message);
    if (fields.some((field) => field.name === name)) {
      errors.at(typeMessage(owner, `field ${name} is declared more than once`), node.name);
      continue;
    }
    if (name.startsWith('_')) errors.at(describe('names starting with "_" are reserved'), node.name);
    else if (isReservedWord(name)) errors.at(describe(reservedFieldNameMessage(name)), node.name);
    const shape = shapeOf(node.type);
    if (shape.nestedList) errors.at(describe(`lists of lists (${shape.typeText}) are not supported`), node.type);
    const kind = kindOf(shape.namedType);
    if (kind === undefined) errors.at(describe(`unknown type ${shape.namedType}`), shape.namedTypeNode);
    else if (kind === 'input' || kind === 'root') errors.at(describe(`${shape.namedType} cannot be the type of a field`), shape.namedTypeNode);
    const field: RemoteFieldModel = { name, typeText: shape.typeText, namedType: shape.namedType, list: shape.list, args: remoteArgumentsOf(node, kindOf, describe, errors) };
    for (const directive of node.directives ?? []) {
      const directiveName = directive.name.value;
      if (isIgnoredDirective(link, directiveName)) continue;
      if (directiveName === REMOTE_RESPONSE) {
        const remoteName = remoteResponseNameOf(owner, name, directive, errors);
        if (remoteName !== undefined) field.remoteName = remoteName;
      } else if (directiveName === 'deprecated') {
        field.deprecationReason = deprecationReasonOf(directive, errors, describe);
      } else if (directiveName === 'custom' || directiveName === 'lambda') {
        errors.at(describe("can't have @custom/@lambda directive as a @remote type can't have fields with @custom/@lambda directive"), node.name);
      } else if (directiveName === 'default') {
        errors.at(describe('cannot use @default directive on a @remote type'), directive);
      } else {
        errors.at(describe(`@${directiveName} is not allowed on a field of a @remote type (allowed there: ${FIELD_DIRECTIVES.map((item) => `@${item}`).join(', ')})`), directive);
      }
    }
    if (node.description) field.description = node.description.value;
    fields.push(field);
  }
  return fields;
}

/** `@remoteResponse(name: "key")`: the key, which must be a non-empty string. */
function remoteResponseNameOf(owner: string, field: string, directive: ConstDirectiveNode, errors: ErrorSink): string | undefined {
  const describe: Describe = (message) => fieldMessage(owner, field, message);
  const argument = directiveArguments(directive, { allowed: ['name'] }, errors, describe).get('name');
  const value = argument && stringValueOf(argument.value);
  if (argument && value === undefined) {
    errors.at(describe(`@remoteResponse(name:) must be a string, found ${describeValue(argument.value)}`), argument.value);
    return undefined;
  }
  if (value === undefined || value === '') {
    errors.at(describe('Argument name inside @remoteResponse directive must be defined'), directive);
    return undefined;
  }
  return value;
}

function remoteArgumentsOf(node: FieldDefinitionNode, kindOf: (name: string) => NameKind | undefined, describe: Describe, errors: ErrorSink): ArgumentModel[] {
  return (node.arguments ?? []).map((argument) => {
    const shape = shapeOf(argument.type);
    const kind = kindOf(shape.namedType);
    const say = (message: string) => describe(`argument ${argument.name.value}: ${message}`);
    if (kind === undefined) errors.at(say(`unknown type ${shape.namedType}`), shape.namedTypeNode);
    else if (kind !== 'scalar' && kind !== 'enum' && kind !== 'input') errors.at(say(`${shape.namedType} is not a scalar, enum or input type; arguments take those only`), shape.namedTypeNode);
    if (argument.defaultValue) errors.at(say('default values are not supported'), argument.defaultValue);
    return { name: argument.name.value, typeText: shape.typeText, namedType: shape.namedType };
  });
}

function remoteInterfacesOf(declaration: RemoteDeclaration, nodes: readonly NamedTypeNode[], declarations: Declarations, errors: ErrorSink): string[] {
  const names: string[] = [];
  for (const node of nodes) {
    const name = node.name.value;
    const remote = declarations.remote.get(name);
    if (remote?.kind === 'interface') {
      if (!names.includes(name)) names.push(name);
    } else if (declarations.objects.get(name)?.kind === 'interface') {
      errors.at(typeMessage(declaration.name, `with @remote directive implements interface ${name}, which doesn't have @remote directive`), declaration.node.name);
    } else {
      errors.at(typeMessage(declaration.name, `implements ${name}, which is not an interface`), node);
    }
  }
  return names;
}

function unionMembersOf(unionName: NameNode, nodes: readonly NamedTypeNode[], kindOf: (name: string) => NameKind | undefined, errors: ErrorSink): string[] {
  const union = unionName.value;
  const members: string[] = [];
  if (nodes.length === 0) errors.at(typeMessage(union, 'a union needs at least one member type'), unionName);
  for (const node of nodes) {
    const name = node.name.value;
    const kind = kindOf(name);
    if (kind === undefined) errors.at(typeMessage(union, `unknown member type ${name}`), node);
    else if (kind !== 'type' && kind !== 'remote') errors.at(typeMessage(union, `member ${name} is not an object type; the members of a union are object types`), node);
    else if (members.includes(name)) errors.at(typeMessage(union, `member ${name} is listed more than once`), node);
    else members.push(name);
  }
  return members;
}

/** As for stored types: an implementing type's omitted interface fields come first, the last interface's first. */
function inheritRemoteInterfaceFields(model: RemoteTypeModel, models: ReadonlyMap<string, RemoteTypeModel>): void {
  if (model.implements.length === 0) return;
  const own = new Set(model.fields.map((field) => field.name));
  const inherited: RemoteFieldModel[][] = [];
  const taken = new Set(own);
  for (const name of model.implements) {
    const fields = (models.get(name)?.fields ?? []).filter((field) => !taken.has(field.name));
    fields.forEach((field) => taken.add(field.name));
    inherited.push(fields);
  }
  model.fields = [...inherited.reverse().flat(), ...model.fields];
}

/**
 * On stored types: a field of a `@remote` type is answered by `@custom`/`@lambda` only (a stored type
 * implementing a `@remote` interface is types.ts's, `@remoteResponse` elsewhere directive-names.ts's).
 */
export function checkRemoteUses(draft: TypeDraft, remote: ReadonlyMap<string, unknown>, errors: ErrorSink): void {
  for (const field of draft.ownFields) {
    if (remote.has(field.model.namedType) && !field.model.lambda && field.directives.get('custom') === undefined) {
      errors.at(fieldMessage(draft.name, field.model.name, 'is of a type that has @remote directive. Those would need to be resolved by a @custom/@lambda directive'), field.node.name);
    }
  }
}
