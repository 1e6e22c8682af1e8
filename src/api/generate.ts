import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import { userInputBlock } from './user-inputs.js';
import { isCustomLogic, isKeptHere, isNumeric, isUnionTarget, scalarOf } from '../sdl/facts.js';
import { apiIdField, canAdd, canUpdate, canUpsert, declaredInputFields, filterTakesHas, hasFilterFields, inputFields, isReferenceable, orderableFields, patchFields, uniqueIdFields } from './fields.js';
import { gatewayKeepsRelationAggregate, gatewayKeepsRelationArguments, localOnlyTypeNames, queriesAreLocalOnly } from './gateway-view.js';
import { federationSchemaExtension, fieldDirectives, generatedObjectSuffix, hiddenSuffix, typeDirectives } from './federation-print.js';
import { names } from './names.js';
import { checkPasswordOperation, secretInputLine } from './password.js';
import { filterFor } from './search-filters.js';
import { remoteTypeBlock } from './remote-blocks.js';
import { unionBlocks } from './union-blocks.js';
import { generateOf } from '../sdl/generate-directive.js';

/**
 * SchemaModel → the SDL of the generated API (Dgraph's GraphQL shapes), and the federation view of it
 * that `_service { sdl }` gives the gateway: the same SDL less what would not compose with other
 * subgraphs (see gateway-view.ts).
 */
export interface GeneratedApi {
  sdl: string;
  gatewaySdl: string;
  /** Which user type each part of `sdl` was generated for: `{ line, typeName }` by first line, ascending. */
  origins: GeneratedOrigin[];
}

export interface GeneratedOrigin {
  /** 1-based line of `sdl` where the part starts. */
  line: number;
  /** None for the parts no single user type owns (scalars, enums, custom operations). */
  typeName?: string;
}

interface Operation {
  sdl: string;
  /** Left out of the gateway's view. */
  localOnly: boolean;
  /** The user type it was generated for (none for custom operations). */
  typeName?: string;
}

/** `@cascade`: drop the objects whose selected (or listed) fields are null or empty (see resolve/cascade.ts). */
export const CASCADE_DIRECTIVE = 'directive @cascade(fields: [String]) on FIELD';

/** `@cacheControl`: the answer's `Cache-Control: public,max-age=N` (see server/cache-control-plugin.ts), as Dgraph declares it. */
export const CACHE_CONTROL_DIRECTIVE = 'directive @cacheControl(maxAge: Int!) on QUERY';

export function generateApi(model: SchemaModel): GeneratedApi {
  const blocks = new Blocks();
  const queries: Operation[] = [];
  const mutations: Operation[] = [];
  /** Dgraph's `@withSubscription`: the type's queries (or the @lambda query) again, under `Subscription`. */
  const subscriptions: Operation[] = [];

  for (const composed of model.federation.composedDirectives) blocks.set(`@${composed.name}`, composed.definition);
  // Dgraph's query directives, served here only: the gateway's clients cannot ask for them.
  blocks.set('@cascade', CASCADE_DIRECTIVE);
  blocks.localOnly.add('@cascade');
  blocks.set('@cacheControl', CACHE_CONTROL_DIRECTIVE);
  blocks.localOnly.add('@cacheControl');
  blocks.set('DateTime', 'scalar DateTime');
  blocks.set('Int64', 'scalar Int64');
  for (const enumModel of model.enums.values()) {
    const valueLine = (value: string) =>
      `  ${describedLine(enumModel.valueDescriptions?.[value], `${value}${deprecatedSuffix(enumModel.deprecations?.[value])}`)}`;
    blocks.set(enumModel.name, describe(enumModel.description, `enum ${enumModel.name} {\n${enumModel.values.map(valueLine).join('\n')}\n}`));
  }
  for (const input of model.inputs?.values() ?? []) blocks.set(input.name, userInputBlock(input));
  for (const remote of model.remoteTypes?.values() ?? []) blocks.set(remote.name, remoteTypeBlock(remote));

  for (const type of model.types.values()) {
    blocks.currentType = type.name;
    addTypeBlocks(model, type, blocks);
    blocks.currentType = undefined;
    const typeQueries = queryOperations(model, type).map((operation) => ({ ...operation, typeName: type.name }));
    queries.push(...typeQueries);
    // Dgraph subscribes to get, query and aggregate; a password check is not data that changes.
    if (type.withSubscription) subscriptions.push(...typeQueries.filter((operation) => !operation.sdl.startsWith(`${names.checkPassword(type.name)}(`)));
    mutations.push(...mutationOperations(model, type).map((operation) => ({ ...operation, typeName: type.name })));
  }
  for (const union of model.unions?.values() ?? []) {
    for (const block of unionBlocks(model, union)) {
      blocks.set(block.name, block.sdl);
      if (block.gatewaySdl !== undefined) blocks.gatewayVariants.set(block.name, block.gatewaySdl);
    }
  }
  // As Dgraph prints them: the schema's own Query and Mutation fields first, then the generated ones.
  const custom = (fields: readonly FieldModel[]): Operation[] => fields.map((field) => ({ sdl: customOperation(field), localOnly: false }));
  queries.unshift(...custom(model.customQueries));
  subscriptions.unshift(...custom(model.customQueries.filter((field) => field.withSubscription)));
  mutations.unshift(...custom(model.customMutations));

  const print = (includeLocalOnly: boolean): string => {
    const visible = (operations: Operation[]) => operations.filter((operation) => includeLocalOnly || !operation.localOnly);
    const typeBlocks = includeLocalOnly ? [...blocks.values()] : blocks.gatewayView();
    // With every query switched off (`@generate`), Query stays as a bare header: the federation fields extend it.
    const queryRoot = includeLocalOnly && queries.length === 0 ? 'type Query' : rootType('Query', visible(queries));
    return [...typeBlocks, queryRoot, rootType('Mutation', visible(mutations)), rootType('Subscription', visible(subscriptions))]
      .filter((block) => block !== '')
      .join('\n\n') + '\n';
  };
  const schemaExtension = federationSchemaExtension(model.federation);
  const gatewaySdl = schemaExtension === '' ? print(false) : `${schemaExtension}\n\n${print(false)}`;
  return { sdl: print(true), gatewaySdl, origins: originsOf(blocks, [queries, mutations, subscriptions]) };
}

/** Mirrors `print(true)`: blocks, a blank line between them, then each root type's header and one line per operation. */
function originsOf(blocks: Blocks, roots: Operation[][]): GeneratedOrigin[] {
  const origins: GeneratedOrigin[] = [];
  let line = 1;
  for (const [name, block] of blocks) {
    origins.push({ line, typeName: blocks.origins.get(name) });
    line += block.split('\n').length + 1;
  }
  for (const [index, operations] of roots.entries()) {
    if (operations.length === 0) {
      // The bare `type Query` header and the blank line after it.
      if (index === 0) line += 2;
      continue;
    }
    line += 1;
    for (const operation of operations) {
      origins.push({ line, typeName: operation.typeName });
      line += 1;
    }
    line += 2;
  }
  return origins;
}

/** The user type whose generated part holds `line` of the generated SDL. */
export function originTypeAt(api: GeneratedApi, line: number): string | undefined {
  let found: string | undefined;
  for (const origin of api.origins) {
    if (origin.line > line) break;
    found = origin.typeName;
  }
  return found;
}

/**
 * The SDL blocks by name, each remembering the user type it was first generated for, and how the
 * gateway view differs: blocks it leaves out, and blocks it prints differently.
 */
class Blocks extends Map<string, string> {
  currentType: string | undefined;
  readonly origins = new Map<string, string>();
  readonly localOnly = new Set<string>();
  readonly gatewayVariants = new Map<string, string>();

  override set(name: string, sdl: string): this {
    if (this.currentType !== undefined && !this.has(name)) this.origins.set(name, this.currentType);
    return super.set(name, sdl);
  }

  gatewayView(): string[] {
    return [...this].filter(([name]) => !this.localOnly.has(name)).map(([name, sdl]) => this.gatewayVariants.get(name) ?? sdl);
  }
}

function rootType(name: string, operations: Operation[]): string {
  if (operations.length === 0) return '';
  return `type ${name} {\n${operations.map((operation) => `  ${operation.sdl}`).join('\n')}\n}`;
}

/** Whether a field is `@inaccessible` (Federation 2): what is generated for it is hidden from the supergraph too. */
function isHidden(field: FieldModel): boolean {
  return field.marks?.inaccessible === true;
}

function addTypeBlocks(model: SchemaModel, type: TypeModel, blocks: Blocks): void {
  const T = type.name;
  const typeHidden = hiddenSuffix(model, type.marks?.inaccessible === true);
  const hide = (field: FieldModel): string => hiddenSuffix(model, isHidden(field));
  const objectSuffix = generatedObjectSuffix(model, type.marks?.inaccessible === true);
  blocks.set(T, objectType(model, type, 'local'));
  const gatewayObject = objectType(model, type, 'gateway');
  if (gatewayObject !== blocks.get(T)) blocks.gatewayVariants.set(T, gatewayObject);
  const mutations = generatedMutations(model, type);
  for (const name of localOnlyTypeNames(type, mutations.add || mutations.update || mutations.delete)) blocks.localOnly.add(name);

  blocks.set(names.filter(T), filterBlock(model, type, blocks, typeHidden));

  const orderable = orderableFields(model, type);
  if (orderable.length > 0) {
    blocks.set(names.orderable(T), enumBlock(names.orderable(T), orderable.map((field) => `${field.name}${hide(field)}`), typeHidden));
    blocks.set(names.order(T), inputBlock(names.order(T), [`asc: ${names.orderable(T)}`, `desc: ${names.orderable(T)}`, `then: ${names.order(T)}`], typeHidden));
  }

  blocks.set(names.aggregateResult(T), aggregateResultBlock(model, type, objectSuffix));

  const fields = inputFields(model, type);
  if (mutations.add) {
    const addLine = (field: FieldModel): string => {
      const text = inputTypeText(field, true);
      // A required input field cannot be hidden: the supergraph's clients could not give it.
      return `${field.name}: ${text}${text.endsWith('!') ? '' : hide(field)}`;
    };
    blocks.set(names.addInput(T), inputBlock(names.addInput(T), withSecret(fields.map(addLine), secretInputLine(type, true)), typeHidden));
  }
  const patch = patchFields(model, type);
  if (mutations.update) {
    const patchLines = withSecret(patch.map((field) => `${field.name}: ${inputTypeText(field, false)}${hide(field)}`), secretInputLine(type, false));
    blocks.set(names.patch(T), inputBlock(names.patch(T), patchLines, typeHidden));
    blocks.set(names.updateInput(T), inputBlock(names.updateInput(T), [`filter: ${names.filter(T)}!`, `set: ${names.patch(T)}`, `remove: ${names.patch(T)}`], typeHidden));
  }
  const ref = refBlock(model, type, fields, typeHidden);
  if (ref) blocks.set(names.ref(T), ref);

  const listField = `${names.payloadField(T)}${listArgs(model, T)}: [${T}]`;
  // Dgraph's clean-up drops `addT`/`updateT` whose input is left empty, but keeps their payloads.
  const payloads = generatedPayloads(model, type);
  if (payloads.add) blocks.set(names.addPayload(T), objectBlock(names.addPayload(T), [listField, 'numUids: Int'], objectSuffix));
  if (payloads.update) blocks.set(names.updatePayload(T), objectBlock(names.updatePayload(T), [listField, 'numUids: Int'], objectSuffix));
  if (mutations.delete) blocks.set(names.deletePayload(T), objectBlock(names.deletePayload(T), [listField, 'msg: String', 'numUids: Int'], objectSuffix));
}

type View = 'local' | 'gateway';

function objectType(model: SchemaModel, type: TypeModel, view: View): string {
  const header = [type.kind === 'interface' ? 'interface' : 'type', type.name];
  if (type.implements.length > 0) header.push('implements', type.implements.join(' & '));
  header.push(...typeDirectives(type));
  const lines: string[] = [];
  const aggregates: string[] = [];
  const keyFields = keyFieldNames(type);
  for (const field of type.fields) {
    const withRelationArguments = view === 'local' || gatewayKeepsRelationArguments(model, type, field);
    lines.push(outputField(model, field, withRelationArguments && !keyFields.has(field.name)));
    // A union has no AggregateResult: its members share no fields to aggregate (as in Dgraph).
    if (field.of.kind === 'relation' && field.list && !isCustomLogic(field) && !isUnionTarget(model, field) && (view === 'local' || gatewayKeepsRelationAggregate(model, field))) {
      const aggregate = `${names.relationAggregate(field.name)}(filter: ${names.filter(field.of.target)}): ${names.aggregateResult(field.of.target)}`;
      aggregates.push(`${aggregate}${hiddenSuffix(model, isHidden(field))}${field.marks?.shareable ? ' @shareable' : ''}`);
    }
  }
  // As Dgraph prints them: the `<field>Aggregate` fields after the declared ones.
  lines.push(...aggregates);
  return describe(type.description, `${header.join(' ')} {\n${lines.map((line) => `  ${line}`).join('\n')}\n}`);
}

/** Fields a `@key` selects: federation forbids arguments on them. */
function keyFieldNames(type: TypeModel): Set<string> {
  return new Set(type.keys.flatMap((key) => key.selection.map((item) => item.name)));
}

function outputField(model: SchemaModel, field: FieldModel, withRelationArguments: boolean): string {
  let args = '';
  if (isCustomLogic(field) || field.of.kind !== 'relation') args = argumentList(field);
  else if (field.of.kind === 'relation' && withRelationArguments) {
    args = field.list ? listArgs(model, field.of.target) : `(filter: ${names.filter(field.of.target)})`;
  }
  const directives = fieldDirectives(field);
  const line = `${field.name}${args}: ${field.typeText}${directives.map((directive) => ` ${directive}`).join('')}${deprecatedSuffix(field.deprecationReason)}`;
  return describedLine(field.description, line);
}

/** A field or enum value line with its description before it, when it has one. */
function describedLine(description: string | undefined, line: string): string {
  return description ? `${JSON.stringify(description)} ${line}` : line;
}

function listArgs(model: SchemaModel, target: string): string {
  const targetType = model.types.get(target);
  const order = targetType && orderableFields(model, targetType).length > 0 ? `, order: ${names.order(target)}` : '';
  return `(filter: ${names.filter(target)}${order}, first: Int, offset: Int)`;
}

function argumentList(field: FieldModel): string {
  if (field.args.length === 0) return '';
  return `(${field.args.map((arg) => `${arg.name}: ${arg.typeText}`).join(', ')})`;
}

/** The input type of a field in Add (`required` as declared) or Patch/Ref (all optional) inputs, as in Dgraph. */
function inputTypeText(field: FieldModel, required: boolean): string {
  const named = field.of.kind === 'relation' ? names.ref(field.of.target) : field.namedType;
  let text = field.list ? `[${named}${field.itemNonNull ? '!' : ''}]` : named;
  // A supplied ID is the object's identity: an add cannot go without it, even where the field is nullable.
  // A field with an add default may be left out (Dgraph).
  if (required && (field.nonNull || field.isIdField) && field.defaults?.add === undefined) text += '!';
  return text;
}

/**
 * `TFilter`, as Dgraph builds it: the `ID` field (under its own name) and each searchable field in
 * declaration order, `has` when some field besides the ID can be tested, `and`/`or` unless the ID is all
 * there is to filter on, and `not`.
 */
function filterBlock(model: SchemaModel, type: TypeModel, blocks: Blocks, suffix: string): string {
  const T = type.name;
  const lines: string[] = [];
  let onlyTheId = true;
  const idField = apiIdField(model, type);
  for (const field of type.fields) {
    const hide = hiddenSuffix(model, isHidden(field));
    if (field === idField) {
      lines.push(`${field.name}: [ID!]${hide}`);
      continue;
    }
    if (!isKeptHere(model, type, field)) continue;
    const fieldFilter = filterFor(field);
    if (!fieldFilter) continue;
    lines.push(`${field.name}: ${fieldFilter.typeName}${hide}`);
    onlyTheId = false;
    for (const [name, sdl] of fieldFilter.definitions) blocks.set(name, sdl);
  }
  const hasFields = hasFilterFields(model, type);
  if (hasFields.length > 0) {
    if (filterTakesHas(model, type)) {
      lines.push(`has: [${names.hasFilter(T)}]`);
      onlyTheId = false;
    }
    blocks.set(names.hasFilter(T), enumBlock(names.hasFilter(T), hasFields.map((field) => `${field.name}${hiddenSuffix(model, isHidden(field))}`), suffix));
  }
  if (!onlyTheId) lines.push(`and: [${names.filter(T)}]`, `or: [${names.filter(T)}]`);
  lines.push(`not: ${names.filter(T)}`);
  return inputBlock(names.filter(T), lines, suffix);
}

/**
 * `TRef`, or none, as Dgraph builds it: an object type's ID and writable fields, an interface's ID and
 * first `@id` field (an interface without either has no Ref). A Ref of one field that names the object
 * makes it required (`GenreRef { name: String! }`); otherwise every field is optional.
 */
function refBlock(model: SchemaModel, type: TypeModel, fields: FieldModel[], suffix: string): string | undefined {
  if (type.kind === 'interface' && !isReferenceable(model, type)) return undefined;
  const idField = apiIdField(model, type);
  const refFields: FieldModel[] = idField ? [idField] : [];
  if (type.kind === 'type') refFields.push(...fields.filter((field) => !field.isIdField));
  else refFields.push(...uniqueIdFields(type).filter((field) => !field.isIdField && isKeptHere(model, type, field)).slice(0, 1));
  const secret = type.kind === 'type' ? secretInputLine(type, false) : undefined;
  if (refFields.length === 0 && secret === undefined) return undefined;
  const required = refFields.length === 1 && secret === undefined && isReferenceable(model, type) ? '!' : '';
  const lines = refFields.map((field) => {
    const text = field.isIdField ? 'ID' : inputTypeText(field, false);
    return `${field.name}: ${text}${required}${required ? '' : hiddenSuffix(model, isHidden(field))}`;
  });
  if (secret) lines.push(secret);
  return inputBlock(names.ref(type.name), lines, suffix);
}

function aggregateResultBlock(model: SchemaModel, type: TypeModel, suffix: string): string {
  const lines = ['count: Int'];
  for (const field of orderableFields(model, type)) {
    const scalar = scalarOf(field);
    const hide = hiddenSuffix(model, isHidden(field));
    lines.push(`${field.name}Min: ${scalar}${hide}`, `${field.name}Max: ${scalar}${hide}`);
    if (isNumeric(field)) lines.push(`${field.name}Sum: ${scalar}${hide}`, `${field.name}Avg: Float${hide}`);
  }
  return objectBlock(names.aggregateResult(type.name), lines, suffix);
}

function queryOperations(model: SchemaModel, type: TypeModel): Operation[] {
  const T = type.name;
  const localOnly = queriesAreLocalOnly(type);
  const hide = hiddenSuffix(model, type.marks?.inaccessible === true);
  const generate = generateOf(type);
  const operations: Operation[] = [];
  const getArgs = getArguments(model, type);
  if (getArgs && generate.get) operations.push({ sdl: `${names.get(T)}(${getArgs}): ${T}${hide}`, localOnly });
  const checkPassword = generate.password ? checkPasswordOperation(type) : undefined;
  if (checkPassword) operations.push({ sdl: `${checkPassword}${hide}`, localOnly });
  const order = `, order: ${names.order(T)}`;
  if (generate.query) {
    operations.push({ sdl: `${names.query(T)}(filter: ${names.filter(T)}${orderableFields(model, type).length > 0 ? order : ''}, first: Int, offset: Int): [${T}]${hide}`, localOnly });
  }
  if (generate.aggregate) operations.push({ sdl: `${names.aggregate(T)}(filter: ${names.filter(T)}): ${names.aggregateResult(T)}${hide}`, localOnly });
  return operations;
}

/** `getT(postID: ID!)`, or with `@id` fields every key optional (exactly one must be given at run time). */
function getArguments(model: SchemaModel, type: TypeModel): string | undefined {
  const keys: string[] = [];
  const idField = apiIdField(model, type);
  if (idField) keys.push(`${idField.name}: ID`);
  for (const field of uniqueIdFields(type)) if (!field.isIdField && isKeptHere(model, type, field)) keys.push(`${field.name}: ${field.namedType}`);
  if (keys.length === 0) return undefined;
  return keys.length === 1 ? `${keys[0]}!` : keys.join(', ');
}

/** Which of `addT`, `updateT`, `deleteT` the API has: switched on by `@generate` and with inputs to take. */
function generatedMutations(model: SchemaModel, type: TypeModel): { add: boolean; update: boolean; delete: boolean } {
  const generate = generateOf(type);
  return { add: generate.add && canAdd(model, type), update: generate.update && canUpdate(model, type), delete: generate.delete };
}

/** Which of `AddTPayload` and `UpdateTPayload` the API has: those of the inputs as declared, before Dgraph's clean-up. */
function generatedPayloads(model: SchemaModel, type: TypeModel): { add: boolean; update: boolean } {
  const generate = generateOf(type);
  const declared = declaredInputFields(model, type);
  return { add: generate.add && type.kind === 'type' && declared.length > 0, update: generate.update && declared.some((field) => !field.isIdField) };
}

/** The mutations of a type; the gateway view has them too, an extended type's included (spec 4.2, rule 1). */
function mutationOperations(model: SchemaModel, type: TypeModel): Operation[] {
  const T = type.name;
  const hide = hiddenSuffix(model, type.marks?.inaccessible === true);
  const generated = generatedMutations(model, type);
  const operations: Operation[] = [];
  if (generated.add) {
    const upsert = canUpsert(model, type) ? ', upsert: Boolean' : '';
    operations.push({ sdl: `${names.add(T)}(input: [${names.addInput(T)}!]!${upsert}): ${names.addPayload(T)}${hide}`, localOnly: false });
  }
  if (generated.update) operations.push({ sdl: `${names.update(T)}(input: ${names.updateInput(T)}!): ${names.updatePayload(T)}${hide}`, localOnly: false });
  if (generated.delete) operations.push({ sdl: `${names.delete(T)}(filter: ${names.filter(T)}!): ${names.deletePayload(T)}${hide}`, localOnly: false });
  return operations;
}

function customOperation(field: FieldModel): string {
  const directives = fieldDirectives(field).map((directive) => ` ${directive}`).join('');
  return `${field.name}${argumentList(field)}: ${field.typeText}${directives}${deprecatedSuffix(field.deprecationReason)}`;
}

/** ` @deprecated(reason: "...")` for a deprecated field or enum value, else ''. */
function deprecatedSuffix(reason: string | undefined): string {
  return reason === undefined ? '' : ` @deprecated(reason: ${JSON.stringify(reason)})`;
}

function withSecret(lines: string[], secretLine: string | undefined): string[] {
  return secretLine ? [...lines, secretLine] : lines;
}

function inputBlock(name: string, lines: string[], suffix = ''): string {
  return `input ${name}${suffix} {\n${lines.map((line) => `  ${line}`).join('\n')}\n}`;
}

function objectBlock(name: string, lines: string[], suffix = ''): string {
  return `type ${name}${suffix} {\n${lines.map((line) => `  ${line}`).join('\n')}\n}`;
}

function enumBlock(name: string, values: string[], suffix = ''): string {
  return `enum ${name}${suffix} {\n${values.map((value) => `  ${value}`).join('\n')}\n}`;
}

function describe(description: string | undefined, block: string): string {
  return description ? `${JSON.stringify(description)}\n${block}` : block;
}
