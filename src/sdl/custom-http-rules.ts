import { Kind, type DirectiveNode, type FieldDefinitionNode, type ObjectFieldNode } from 'graphql';
import { bodyPlaceholders, urlPathPlaceholders } from './template-placeholders.js';
import { fieldMessage, type ErrorSink } from './errors.js';
import type { FieldDraft } from './fields.js';
import type { FieldModel } from './model.js';
import type { TypeDraft } from './types.js';

/**
 * The `@custom(http:)` rules Dgraph documents that need more than the directive itself (its argument
 * list, its parent type), in Dgraph's wording:
 * - a `$placeholder` in the url path names an argument that can be null (a path segment cannot be left out);
 * - `mode` on a Query or Mutation field (a root field is called once, so SINGLE/BATCH means nothing);
 * - a body placeholder naming a field of the parent type that is not a scalar or an enum.
 */
export function checkCustomHttpOfType(draft: TypeDraft, errors: ErrorSink): void {
  for (const field of draft.ownFields) {
    const http = httpFieldsOf(field.directives.get('custom'));
    if (!http) continue;
    const describe = (message: string): string => fieldMessage(draft.name, field.model.name, message);
    checkNullablePathArguments(field.node, field.model, http, errors, describe);
    checkBodyUsesScalars(draft, field, http, errors, describe);
  }
}

/** The same rules for the fields of `type Query` / `type Mutation`. */
export function checkCustomHttpOfRoot(
  root: 'Query' | 'Mutation',
  nodes: readonly FieldDefinitionNode[],
  models: readonly FieldModel[],
  errors: ErrorSink,
): void {
  for (const node of nodes) {
    const model = models.find((candidate) => candidate.name === node.name.value);
    const http = httpFieldsOf(node.directives?.find((directive) => directive.name.value === 'custom'));
    if (!model || !http) continue;
    const describe = (message: string): string => fieldMessage(root, model.name, message);
    checkNullablePathArguments(node, model, http, errors, describe);
    const mode = http.get('mode');
    if (mode) errors.at(describe("mode field inside @custom directive can't be present on Query/Mutation"), mode);
  }
}

/** The keys of `@custom(http: {...})` by name (the first of a repeated key; repeats are reported elsewhere). */
function httpFieldsOf(directive: DirectiveNode | undefined): Map<string, ObjectFieldNode> | undefined {
  const http = directive?.arguments?.find((argument) => argument.name.value === 'http');
  if (!http || http.value.kind !== Kind.OBJECT) return undefined;
  const fields = new Map<string, ObjectFieldNode>();
  for (const field of http.value.fields) if (!fields.has(field.name.value)) fields.set(field.name.value, field);
  return fields;
}

function checkNullablePathArguments(
  node: FieldDefinitionNode,
  model: FieldModel,
  http: ReadonlyMap<string, ObjectFieldNode>,
  errors: ErrorSink,
  describe: (message: string) => string,
): void {
  const url = http.get('url');
  if (!url || url.value.kind !== Kind.STRING) return;
  for (const name of urlPathPlaceholders(url.value.value)) {
    const argument = node.arguments?.find((candidate) => candidate.name.value === name);
    if (argument && argument.type.kind !== Kind.NON_NULL_TYPE && model.args.some((arg) => arg.name === name)) {
      errors.at(describe(`url path inside @custom directive uses an argument ${name} that can be null`), url.value);
    }
  }
}

function checkBodyUsesScalars(
  draft: TypeDraft,
  field: FieldDraft,
  http: ReadonlyMap<string, ObjectFieldNode>,
  errors: ErrorSink,
  describe: (message: string) => string,
): void {
  const body = http.get('body');
  if (!body || body.value.kind !== Kind.STRING) return;
  for (const name of bodyPlaceholders(body.value.value)) {
    if (field.model.args.some((arg) => arg.name === name)) continue;
    const used = draft.fieldsByName.get(name);
    if (used && used.model.of.kind === 'relation') {
      errors.at(describe(`@custom directive, body template must use scalar fields, found field \`${name}\` of type \`${used.model.namedType}\``), body.value);
    }
  }
}
