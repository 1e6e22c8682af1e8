import { Kind, type DirectiveNode, type FieldDefinitionNode, type ObjectFieldNode } from 'graphql';
import { bodyPlaceholders, urlPathPlaceholders, urlQueryPlaceholders } from './template-placeholders.js';
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
    checkIdentityOfParent(draft, field, errors, describe);
    checkUrlUsesFields(draft, field, http, errors, describe);
    checkBodyUsesFields(draft, field, http, errors, describe);
    checkBatchUrl(http, errors, describe);
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
    checkRootPlaceholders(model, http, errors, describe);
  }
}

/** On Query/Mutation a placeholder can only name an argument of the field. */
function checkRootPlaceholders(model: FieldModel, http: ReadonlyMap<string, ObjectFieldNode>, errors: ErrorSink, describe: (message: string) => string): void {
  const isArgument = (name: string) => model.args.some((arg) => arg.name === name);
  const url = http.get('url');
  if (url && url.value.kind === Kind.STRING) {
    for (const [where, names] of [['path', urlPathPlaceholders(url.value.value)], ['query', urlQueryPlaceholders(url.value.value)]] as const) {
      for (const name of names) if (!isArgument(name)) errors.at(describe(`url ${where} inside @custom directive uses an argument ${name} that is not defined`), url.value);
    }
  }
  const body = http.get('body');
  if (body && body.value.kind === Kind.STRING) {
    for (const name of bodyPlaceholders(body.value.value)) {
      if (!isArgument(name)) errors.at(describe(`body template inside @custom directive uses an argument ${name} that is not defined`), body.value);
    }
  }
}

/** The ID field and the first `@id` field: what Dgraph identifies a parent by when it calls the endpoint. */
function identityFieldsOf(draft: TypeDraft): string[] {
  const id = draft.fields.find((field) => field.model.isIdField);
  const xid = draft.fields.find((field) => field.model.isUniqueId || field.model.suppliedByCaller === true);
  return [...new Set([id?.model.name, xid?.model.name].filter((name): name is string => name !== undefined))];
}

/** A `@custom` field's parent needs an identity, and the identity itself is never computed. */
function checkIdentityOfParent(draft: TypeDraft, field: FieldDraft, errors: ErrorSink, describe: (message: string) => string): void {
  const directive = field.directives.get('custom')!;
  const identity = identityFieldsOf(draft);
  if (identity.length === 0) {
    errors.at(describe('@custom directive is only allowed on fields where the type definition has a field with type ID! or a field with @id directive'), directive);
  }
  if (identity.includes(field.model.name) || (field.model.namedType === 'ID' && !field.model.list)) {
    errors.at(describe('custom directive not allowed on field of type ID! or field with @id directive'), directive);
  }
}

/** A url placeholder of a field of a type names a field of the type (or an argument); in the path, one that cannot be null. */
function checkUrlUsesFields(draft: TypeDraft, field: FieldDraft, http: ReadonlyMap<string, ObjectFieldNode>, errors: ErrorSink, describe: (message: string) => string): void {
  const url = http.get('url');
  if (!url || url.value.kind !== Kind.STRING) return;
  for (const [where, names] of [['path', urlPathPlaceholders(url.value.value)], ['query', urlQueryPlaceholders(url.value.value)]] as const) {
    for (const name of names) {
      if (field.model.args.some((arg) => arg.name === name)) continue;
      const used = draft.fieldsByName.get(name);
      if (!used) errors.at(describe(`url ${where} inside @custom directive uses a field ${name} that is not defined`), url.value);
      else if (where === 'path' && !used.model.nonNull) errors.at(describe(`url path inside @custom directive uses a field ${name} that can be null`), url.value);
    }
  }
}

/**
 * A body template of a field of a type uses fields of the type (or arguments): not the field itself, not
 * another computed field, and the parent's ID or `@id` field among them.
 */
function checkBodyUsesFields(draft: TypeDraft, field: FieldDraft, http: ReadonlyMap<string, ObjectFieldNode>, errors: ErrorSink, describe: (message: string) => string): void {
  const body = http.get('body');
  if (!body || body.value.kind !== Kind.STRING) return;
  const identity = identityFieldsOf(draft);
  let usesIdentity = false;
  for (const name of bodyPlaceholders(body.value.value)) {
    if (name === field.model.name) errors.at(describe("@custom directive, body template can't require itself"), body.value);
    if (field.model.args.some((arg) => arg.name === name) && name !== field.model.name) continue;
    const used = draft.fieldsByName.get(name);
    if (!used) {
      errors.at(describe(`@custom directive, body template must use fields defined within the type, found \`${name}\``), body.value);
      continue;
    }
    if (used.model.lambda || used.model.custom !== undefined || used.directives.has('custom')) {
      errors.at(describe(`@custom directive, body template can't use another field with @custom/@lambda directive, found field \`${name}\` with @custom/@lambda`), body.value);
    }
    if (identity.includes(name)) usesIdentity = true;
  }
  if (!usesIdentity) errors.at(describe('@custom directive, body template must use a field with type ID! or a field with @id directive'), body.value);
}

/** In mode BATCH one request serves every parent: its url cannot depend on one of them. */
function checkBatchUrl(http: ReadonlyMap<string, ObjectFieldNode>, errors: ErrorSink, describe: (message: string) => string): void {
  const url = http.get('url');
  const mode = http.get('mode');
  if (!url || url.value.kind !== Kind.STRING || !mode || mode.value.kind !== Kind.ENUM || mode.value.value !== 'BATCH') return;
  if (urlPathPlaceholders(url.value.value).length + urlQueryPlaceholders(url.value.value).length > 0) {
    errors.at(describe("has parameters in url inside @custom directive while mode is BATCH, url can't contain parameters if mode is BATCH"), url.value);
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
