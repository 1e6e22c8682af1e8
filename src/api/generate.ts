import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import { isCustomLogic, isKeptHere, isNumeric, scalarOf } from '../sdl/facts.js';
import { canAdd, hasFilterFields, inputFields, orderableFields, uniqueIdFields } from './fields.js';
import { gatewayKeepsRelationAggregate, gatewayKeepsRelationArguments, localOnlyTypeNames, operationsAreLocalOnly } from './gateway-view.js';
import { federationSchemaExtension, fieldDirectives, generatedObjectSuffix, hiddenSuffix, typeDirectives } from './federation-print.js';
import { names } from './names.js';
import { filterFor } from './search-filters.js';

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

export function generateApi(model: SchemaModel): GeneratedApi {
  const blocks = new Blocks();
  const queries: Operation[] = [];
  const mutations: Operation[] = [];
  /** Dgraph's `@withSubscription`: the type's queries (or the @lambda query) again, under `Subscription`. */
  const subscriptions: Operation[] = [];

  for (const composed of model.federation.composedDirectives) blocks.set(`@${composed.name}`, composed.definition);
  blocks.set('DateTime', 'scalar DateTime');
  blocks.set('Int64', 'scalar Int64');
  for (const enumModel of model.enums.values()) {
    blocks.set(enumModel.name, `enum ${enumModel.name} {\n${enumModel.values.map((value) => `  ${value}`).join('\n')}\n}`);
  }

  for (const type of model.types.values()) {
    blocks.currentType = type.name;
    addTypeBlocks(model, type, blocks);
    blocks.currentType = undefined;
    const typeQueries = queryOperations(model, type).map((operation) => ({ ...operation, typeName: type.name }));
    queries.push(...typeQueries);
    if (type.withSubscription) subscriptions.push(...typeQueries);
    mutations.push(...mutationOperations(model, type).map((operation) => ({ ...operation, typeName: type.name })));
  }
  for (const field of model.customQueries) {
    queries.push({ sdl: customOperation(field), localOnly: false });
    if (field.withSubscription) subscriptions.push({ sdl: customOperation(field), localOnly: false });
  }
  for (const field of model.customMutations) mutations.push({ sdl: customOperation(field), localOnly: false });

  const print = (includeLocalOnly: boolean): string => {
    const visible = (operations: Operation[]) => operations.filter((operation) => includeLocalOnly || !operation.localOnly);
    const typeBlocks = includeLocalOnly ? [...blocks.values()] : blocks.gatewayView();
    return [...typeBlocks, rootType('Query', visible(queries)), rootType('Mutation', visible(mutations)), rootType('Subscription', visible(subscriptions))]
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
  for (const operations of roots) {
    if (operations.length === 0) continue;
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
  for (const name of localOnlyTypeNames(type)) blocks.localOnly.add(name);

  const filterLines: string[] = [];
  if (type.idField) filterLines.push('id: [ID!]');
  for (const field of type.fields) {
    if (!isKeptHere(model, type, field)) continue;
    const fieldFilter = filterFor(field);
    if (!fieldFilter) continue;
    filterLines.push(`${field.name}: ${fieldFilter.typeName}${hide(field)}`);
    for (const [name, sdl] of fieldFilter.definitions) blocks.set(name, sdl);
  }
  const hasFields = hasFilterFields(model, type);
  if (hasFields.length > 0) {
    filterLines.push(`has: [${names.hasFilter(T)}]`);
    blocks.set(names.hasFilter(T), enumBlock(names.hasFilter(T), hasFields.map((field) => `${field.name}${hide(field)}`), typeHidden));
  }
  filterLines.push(`and: [${names.filter(T)}]`, `or: [${names.filter(T)}]`, `not: ${names.filter(T)}`);
  blocks.set(names.filter(T), inputBlock(names.filter(T), filterLines, typeHidden));

  const orderable = orderableFields(model, type);
  if (orderable.length > 0) {
    blocks.set(names.orderable(T), enumBlock(names.orderable(T), orderable.map((field) => `${field.name}${hide(field)}`), typeHidden));
    blocks.set(names.order(T), inputBlock(names.order(T), [`asc: ${names.orderable(T)}`, `desc: ${names.orderable(T)}`, `then: ${names.order(T)}`], typeHidden));
  }

  blocks.set(names.aggregateResult(T), aggregateResultBlock(model, type, objectSuffix));

  const fields = inputFields(model, type);
  if (canAdd(model, type)) {
    const addLine = (field: FieldModel): string => {
      const text = inputTypeText(model, type, field, true);
      // A required input field cannot be hidden: the supergraph's clients could not give it.
      return `${field.name}: ${text}${text.endsWith('!') ? '' : hide(field)}`;
    };
    blocks.set(names.addInput(T), inputBlock(names.addInput(T), fields.map(addLine), typeHidden));
  }
  const patchFields = fields.filter((field) => !field.isIdField && field.name !== type.key);
  if (patchFields.length > 0) {
    blocks.set(names.patch(T), inputBlock(names.patch(T), patchFields.map((field) => `${field.name}: ${inputTypeText(model, type, field, false)}${hide(field)}`), typeHidden));
  }
  const updateLines = [`filter: ${names.filter(T)}!`];
  if (patchFields.length > 0) updateLines.push(`set: ${names.patch(T)}`, `remove: ${names.patch(T)}`);
  blocks.set(names.updateInput(T), inputBlock(names.updateInput(T), updateLines, typeHidden));
  blocks.set(names.ref(T), refBlock(model, type, fields, typeHidden));

  const listField = `${names.payloadField(T)}${listArgs(model, T)}: [${T}]`;
  if (canAdd(model, type)) blocks.set(names.addPayload(T), objectBlock(names.addPayload(T), [listField, 'numUids: Int'], objectSuffix));
  blocks.set(names.updatePayload(T), objectBlock(names.updatePayload(T), [listField, 'numUids: Int'], objectSuffix));
  blocks.set(names.deletePayload(T), objectBlock(names.deletePayload(T), [listField, 'msg: String', 'numUids: Int'], objectSuffix));
}

type View = 'local' | 'gateway';

function objectType(model: SchemaModel, type: TypeModel, view: View): string {
  const header = [type.kind === 'interface' ? 'interface' : 'type', type.name];
  if (type.implements.length > 0) header.push('implements', type.implements.join(' & '));
  header.push(...typeDirectives(type));
  const lines: string[] = [];
  const keyFields = keyFieldNames(type);
  for (const field of type.fields) {
    const withRelationArguments = view === 'local' || gatewayKeepsRelationArguments(model, type, field);
    lines.push(outputField(model, field, withRelationArguments && !keyFields.has(field.name)));
    if (field.of.kind === 'relation' && field.list && !isCustomLogic(field) && (view === 'local' || gatewayKeepsRelationAggregate(model, field))) {
      const aggregate = `${names.relationAggregate(field.name)}(filter: ${names.filter(field.of.target)}): ${names.aggregateResult(field.of.target)}`;
      lines.push(`${aggregate}${hiddenSuffix(model, isHidden(field))}${field.marks?.shareable ? ' @shareable' : ''}`);
    }
  }
  return describe(type.description, `${header.join(' ')} {\n${lines.map((line) => `  ${line}`).join('\n')}\n}`);
}

/** Fields a `@key` selects: federation forbids arguments on them. */
function keyFieldNames(type: TypeModel): Set<string> {
  return new Set(type.keys.flatMap((key) => key.selection.map((item) => item.name)));
}

function outputField(model: SchemaModel, field: FieldModel, withRelationArguments: boolean): string {
  let args = '';
  if (isCustomLogic(field)) args = argumentList(field);
  else if (field.of.kind === 'relation' && withRelationArguments) {
    args = field.list ? listArgs(model, field.of.target) : `(filter: ${names.filter(field.of.target)})`;
  }
  const directives = fieldDirectives(field);
  const line = `${field.name}${args}: ${field.typeText}${directives.map((directive) => ` ${directive}`).join('')}`;
  return field.description ? `${JSON.stringify(field.description)} ${line}` : line;
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

/**
 * The input type of a field in Add (`required` as declared) or Patch/Ref (all optional) inputs. An
 * `@external` field other than the key is the owner's data, cached here for `@provides`: never required.
 */
function inputTypeText(model: SchemaModel, type: TypeModel, field: FieldModel, required: boolean): string {
  const named = field.of.kind === 'relation' ? names.ref(field.of.target) : field.namedType;
  let text = field.list ? `[${named}${field.itemNonNull ? '!' : ''}]` : named;
  const ownersCopy = field.external && field.name !== type.key;
  // A supplied ID is the object's identity: an add cannot go without it, even where the field is nullable.
  if (required && (field.nonNull || field.isIdField) && !ownersCopy) text += '!';
  return text;
}

function refBlock(model: SchemaModel, type: TypeModel, fields: FieldModel[], suffix: string): string {
  const lines: string[] = [];
  if (type.idField) lines.push('id: ID');
  if (type.kind === 'type') {
    for (const field of fields) if (!field.isIdField) lines.push(`${field.name}: ${inputTypeText(model, type, field, false)}${hiddenSuffix(model, isHidden(field))}`);
  } else {
    for (const field of uniqueIdFields(type)) lines.push(`${field.name}: ${field.namedType}`);
  }
  return inputBlock(names.ref(type.name), lines.length > 0 ? lines : ['id: ID'], suffix);
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
  const localOnly = operationsAreLocalOnly(type);
  const hide = hiddenSuffix(model, type.marks?.inaccessible === true);
  const operations: Operation[] = [];
  const getArgs = getArguments(type);
  if (getArgs) operations.push({ sdl: `${names.get(T)}(${getArgs}): ${T}${hide}`, localOnly });
  const order = `, order: ${names.order(T)}`;
  operations.push(
    { sdl: `${names.query(T)}(filter: ${names.filter(T)}${orderableFields(model, type).length > 0 ? order : ''}, first: Int, offset: Int): [${T}]${hide}`, localOnly },
    { sdl: `${names.aggregate(T)}(filter: ${names.filter(T)}): ${names.aggregateResult(T)}${hide}`, localOnly },
  );
  return operations;
}

/** `getT(id: ID!)`, or with `@id` fields every key optional (exactly one must be given at run time). */
function getArguments(type: TypeModel): string | undefined {
  const keys: string[] = [];
  if (type.idField) keys.push('id: ID');
  for (const field of uniqueIdFields(type)) if (!field.isIdField) keys.push(`${field.name}: ${field.namedType}`);
  if (keys.length === 0) return undefined;
  return keys.length === 1 ? `${keys[0]}!` : keys.join(', ');
}

function mutationOperations(model: SchemaModel, type: TypeModel): Operation[] {
  const T = type.name;
  const localOnly = operationsAreLocalOnly(type);
  const hide = hiddenSuffix(model, type.marks?.inaccessible === true);
  const operations: Operation[] = [];
  if (canAdd(model, type)) {
    operations.push({ sdl: `${names.add(T)}(input: [${names.addInput(T)}!]!, upsert: Boolean): ${names.addPayload(T)}${hide}`, localOnly });
  }
  operations.push(
    { sdl: `${names.update(T)}(input: ${names.updateInput(T)}!): ${names.updatePayload(T)}${hide}`, localOnly },
    { sdl: `${names.delete(T)}(filter: ${names.filter(T)}!): ${names.deletePayload(T)}${hide}`, localOnly },
  );
  return operations;
}

function customOperation(field: FieldModel): string {
  const directives = fieldDirectives(field).map((directive) => ` ${directive}`).join('');
  return `${field.name}${argumentList(field)}: ${field.typeText}${directives}`;
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
