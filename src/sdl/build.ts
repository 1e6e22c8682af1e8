import { readAuthorization } from './authorization.js';
import { customOperationsOf } from './custom-operations.js';
import { collectDeclarations, ROOT_TYPES, type Declarations } from './declarations.js';
import { ErrorSink, locationOf } from './errors.js';
import { checkFederation, identityKeyOf } from './federation.js';
import { readFederationLink } from './federation-link.js';
import type { NameKind } from './fields.js';
import { inheritInterfaceFields } from './interfaces.js';
import { checkSchemaDocument, checkSchemaText, DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from './limits.js';
import { SCALAR_NAMES, type EnumModel, type SchemaError, type SchemaModel, type TypeModel } from './model.js';
import { parseSchemaText } from './parse.js';
import { resolveRelations } from './relations.js';
import { checkSingleIdField, typeDraftOf, type TypeDraft } from './types.js';

export interface BuildSchemaResult {
  /** Set only when `errors` is empty. */
  model?: SchemaModel;
  /** Every problem in the upload, ordered by location. */
  errors: SchemaError[];
}

/**
 * User schema text → `SchemaModel`. Checks everything the service relies on (directives, `@search` indexes,
 * relation pairs, federation rules, the authorization line) and reports all errors together, each located
 * in the text.
 */
export function buildSchemaModel(source: string, limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): BuildSchemaResult {
  const errors = new ErrorSink();
  if (!checkSchemaText(source, limits, errors)) return { errors: errors.sorted() };
  const authorization = readAuthorization(source, errors);
  const document = parseSchemaText(source, errors);
  if (!document || !checkSchemaDocument(document, limits, errors)) return { errors: errors.sorted() };

  const link = readFederationLink(document, errors);
  const declarations = collectDeclarations(document, errors);
  const kindOf = nameKinds(declarations);
  const drafts = new Map<string, TypeDraft>();
  for (const declaration of declarations.objects.values()) drafts.set(declaration.name, typeDraftOf(declaration, kindOf, link, errors));
  for (const draft of drafts.values()) inheritInterfaceFields(draft, drafts, errors);
  for (const draft of drafts.values()) checkSingleIdField(draft, errors);
  resolveRelations(drafts, errors);
  checkFederation(drafts, link.settings.version, errors);

  const typeNames = [...drafts.keys()];
  const customQueries = customOperationsOf('Query', declarations.queryFields, typeNames, kindOf, link, errors);
  const customMutations = customOperationsOf('Mutation', declarations.mutationFields, typeNames, kindOf, link, errors);

  if (!errors.isEmpty) return { errors: errors.sorted() };
  const model: SchemaModel = {
    types: new Map([...drafts].map(([name, draft]) => [name, typeModelOf(draft)])),
    enums: new Map([...declarations.enums].map(([name, declaration]): [string, EnumModel] => [
      name,
      { name, values: declaration.values, loc: locationOf(declaration.node.name) },
    ])),
    customQueries,
    customMutations,
    federation: link.settings,
    source,
  };
  if (authorization) model.authorization = authorization;
  return { model, errors: [] };
}

function nameKinds(declarations: Declarations): (name: string) => NameKind | undefined {
  return (name) => {
    if ((SCALAR_NAMES as readonly string[]).includes(name)) return 'scalar';
    if (declarations.enums.has(name)) return 'enum';
    const object = declarations.objects.get(name);
    if (object) return object.kind;
    if ((ROOT_TYPES as readonly string[]).includes(name)) return 'root';
    return undefined;
  };
}

function typeModelOf(draft: TypeDraft): TypeModel {
  const fields = draft.fields.map((field) => field.model);
  const node = draft.declaration.node;
  const model: TypeModel = {
    name: draft.name,
    kind: draft.kind,
    fields,
    fieldsByName: new Map(fields.map((field) => [field.name, field])),
    implements: draft.implements,
    keys: draft.directives.keys.map(({ text, selection, resolvable }) => ({ fields: text, selection, resolvable })),
    // An @interfaceObject stands for an interface whose objects another service owns.
    extended: draft.directives.extended || draft.directives.interfaceObject !== undefined,
    loc: locationOf(node.name),
  };
  const idField = fields.find((field) => field.isIdField);
  if (idField) model.idField = idField;
  const key = identityKeyOf(draft);
  if (key) model.key = key;
  if (draft.directives.marks) model.marks = draft.directives.marks;
  if (draft.directives.auth) model.auth = draft.directives.auth;
  if (draft.directives.withSubscription) model.withSubscription = true;
  if ('description' in node && node.description) model.description = node.description.value;
  return model;
}
