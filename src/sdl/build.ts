import { readAuthorization } from './authorization.js';
import { checkCustomHttpOfRoot, checkCustomHttpOfType } from './custom-http-rules.js';
import { customOperationsOf } from './custom-operations.js';
import { readFieldDefaults } from './default-values.js';
import { collectDeclarations, ROOT_TYPES, type Declarations } from './declarations.js';
import { enumDescriptions, enumValueDeprecations } from './enum-deprecations.js';
import { ErrorSink, locationOf } from './errors.js';
import { checkSearchOnExternal } from './external-search.js';
import { checkFederation, identityKeyOf } from './federation.js';
import { isIgnoredDirective, readFederationLink } from './federation-link.js';
import type { NameKind } from './fields.js';
import { checkIdInterfaceOnType } from './id-interface.js';
import { inheritInterfaceFields } from './interfaces.js';
import { checkInputCycles } from './input-cycles.js';
import { inputModelsOf } from './inputs.js';
import { checkKeyFieldArguments } from './key-field-arguments.js';
import { checkSchemaDocument, checkSchemaText, DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from './limits.js';
import { SCALAR_NAMES, type EnumModel, type SchemaError, type SchemaModel, type TypeModel } from './model.js';
import { parseSchemaText } from './parse.js';
import { resolveRelations } from './relations.js';
import { checkRemoteUses, remoteTypeModelsOf } from './remote-types.js';
import { pairReversePredicates } from './reverse-predicates.js';
import { readSecrets } from './secret.js';
import { readStorageNames } from './storage-names.js';
import { checkSingleIdField, typeDraftOf, type TypeDraft } from './types.js';
import { checkUnionFields, checkUnionMembers, unionModelsOf } from './unions.js';

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
  const declarations = collectDeclarations(document, errors, (directive) => isIgnoredDirective(link, directive));
  const kindOf = nameKinds(declarations);
  const drafts = new Map<string, TypeDraft>();
  for (const declaration of declarations.objects.values()) drafts.set(declaration.name, typeDraftOf(declaration, kindOf, link, errors));
  for (const draft of drafts.values()) inheritInterfaceFields(draft, drafts, errors);
  for (const draft of drafts.values()) checkSingleIdField(draft, errors);
  for (const draft of drafts.values()) checkIdInterfaceOnType(draft, drafts, errors);
  const unions = unionModelsOf(declarations, kindOf, errors);
  checkUnionFields(drafts, unions, errors);
  checkUnionMembers(declarations, drafts, unions, errors);
  readStorageNames(drafts, errors);
  readFieldDefaults(drafts, (name) => declarations.enums.get(name)?.values, errors);
  readSecrets(drafts, errors);
  resolveRelations(drafts, errors);
  pairReversePredicates(drafts, errors);
  checkFederation(drafts, link.settings.version, errors);
  const remoteTypes = remoteTypeModelsOf(declarations, kindOf, link, errors);
  for (const draft of drafts.values()) {
    checkRemoteUses(draft, remoteTypes, errors);
    checkSearchOnExternal(draft, errors);
    checkCustomHttpOfType(draft, errors);
    checkKeyFieldArguments(draft, errors);
  }

  const inputs = inputModelsOf(declarations.inputs, kindOf, link, errors);
  checkInputCycles(inputs, declarations.inputs, errors);
  const typeNames = [...drafts.keys()];
  const customQueries = customOperationsOf('Query', declarations.queryFields, typeNames, kindOf, link, errors);
  const customMutations = customOperationsOf('Mutation', declarations.mutationFields, typeNames, kindOf, link, errors);
  checkCustomHttpOfRoot('Query', declarations.queryFields, customQueries, errors);
  checkCustomHttpOfRoot('Mutation', declarations.mutationFields, customMutations, errors);

  const enumDeprecations = new Map([...declarations.enums].map(([name, declaration]) => [name, enumValueDeprecations(declaration.node, errors)]));

  if (!errors.isEmpty) return { errors: errors.sorted() };
  const model: SchemaModel = {
    types: new Map([...drafts].map(([name, draft]) => [name, typeModelOf(draft)])),
    enums: new Map([...declarations.enums].map(([name, declaration]): [string, EnumModel] => {
      const enumModel: EnumModel = { name, values: declaration.values, loc: locationOf(declaration.node.name) };
      const deprecations = enumDeprecations.get(name);
      if (deprecations && Object.keys(deprecations).length > 0) enumModel.deprecations = deprecations;
      Object.assign(enumModel, enumDescriptions(declaration.node));
      return [name, enumModel];
    })),
    customQueries,
    customMutations,
    federation: link.settings,
    source,
  };
  if (authorization) model.authorization = authorization;
  if (inputs.size > 0) model.inputs = inputs;
  if (unions.size > 0) model.unions = unions;
  if (remoteTypes.size > 0) model.remoteTypes = remoteTypes;
  return { model, errors: [] };
}

function nameKinds(declarations: Declarations): (name: string) => NameKind | undefined {
  return (name) => {
    if ((SCALAR_NAMES as readonly string[]).includes(name)) return 'scalar';
    if (declarations.enums.has(name)) return 'enum';
    if (declarations.inputs.has(name)) return 'input';
    const object = declarations.objects.get(name);
    if (object) return object.kind;
    if (declarations.unions.has(name)) return 'union';
    if (declarations.remote.has(name)) return 'remote';
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
  if (draft.directives.generate) model.generate = draft.directives.generate;
  if (draft.directives.lambdaOnMutate) model.lambdaOnMutate = draft.directives.lambdaOnMutate;
  // `@generate(subscription: true)` is Dgraph's other spelling of `@withSubscription`.
  if (draft.directives.withSubscription || draft.directives.generate?.subscription) model.withSubscription = true;
  if ('description' in node && node.description) model.description = node.description.value;
  if (draft.storedName) model.storedName = draft.storedName;
  if (draft.secret) model.secret = draft.secret;
  return model;
}
