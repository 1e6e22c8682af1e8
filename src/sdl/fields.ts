import type { DirectiveNode, FieldDefinitionNode, InputValueDefinitionNode } from 'graphql';
import { customHttpOf } from './custom-http.js';
import { allowedDirectives, type FieldDirectiveName } from './directive-names.js';
import type { Describe } from './directive-values.js';
import { fieldMessage, locationOf, type ErrorSink } from './errors.js';
import { isIgnoredDirective, type FederationLink } from './federation-link.js';
import { federationMarksOf } from './federation-marks.js';
import { checkNoArguments, collectDirectives, deprecationReasonOf, fieldSelectionOf, inverseFieldOf } from './field-directives.js';
import { checkIdArguments, isUniqueAcrossInterface } from './id-interface.js';
import type { ArgumentModel, FieldKind, FieldModel, ScalarName } from './model.js';
import { isReservedWord, reservedFieldNameMessage } from './reserved-names.js';
import { searchIndexesOf } from './search.js';
import { shapeOf, type TypeShape } from './type-ref.js';

/** What a name in the schema stands for. `root` is Query/Mutation, which fields cannot hold. */
/** `remote`: a `@remote` type, interface or union (sdl/remote-types.ts). */
export type NameKind = 'scalar' | 'enum' | 'type' | 'interface' | 'root' | 'input' | 'union' | 'remote';

export interface FieldContext {
  /** The type (or `Query`/`Mutation`) declaring the field, for messages. */
  owner: string;
  /** Fields of user types carry storage directives; fields of Query/Mutation only custom logic. */
  position: 'type' | 'root';
  kindOf(name: string): NameKind | undefined;
  /** The schema's federation version and directive names. */
  link: FederationLink;
}

/** A field's model together with the syntax it came from, kept for the checks that need locations. */
export interface FieldDraft {
  model: FieldModel;
  node: FieldDefinitionNode;
  directives: ReadonlyMap<FieldDirectiveName, DirectiveNode>;
  /** The type or interface whose definition declares the field (the interface, for inherited fields). */
  origin: string;
}

const UNIQUE_ID_SCALARS: readonly ScalarName[] = ['String', 'Int', 'Int64'];
const STORAGE_DIRECTIVES: readonly FieldDirectiveName[] = ['id', 'search', 'hasInverse', 'external'];
/** Argument names the generated API gives relation fields (Dgraph reserves them on every field of a type). */
const RESERVED_ARGUMENTS: readonly string[] = ['first', 'offset', 'filter', 'order'];

export function fieldDraftOf(node: FieldDefinitionNode, context: FieldContext, errors: ErrorSink): FieldDraft {
  const name = node.name.value;
  const describe: Describe = (message) => fieldMessage(context.owner, name, message);
  if (name.startsWith('_')) errors.at(describe('names starting with "_" are reserved'), node.name);
  else if (isReservedWord(name)) errors.at(describe(reservedFieldNameMessage(name)), node.name);

  const shape = shapeOf(node.type);
  if (shape.nestedList) errors.at(describe(`lists of lists (${shape.typeText}) are not supported`), node.type);
  const of = fieldKindOf(shape, context, errors, describe);
  const collected = collectDirectives<FieldDirectiveName>(
    node.directives ?? [],
    {
      allowed: allowedDirectives(context.position === 'root' ? 'rootField' : 'field', context.link.settings.version) as FieldDirectiveName[],
      place: context.position === 'root' ? `a ${context.owner} field` : 'a field',
      location: 'FIELD_DEFINITION',
      link: context.link,
    },
    errors,
    describe,
  );
  const directives = collected.byName;
  const nested = context.link.settings.version === 2;

  const lambdaDirective = directives.get('lambda');
  if (lambdaDirective) checkNoArguments(lambdaDirective, errors, describe);
  const customDirective = directives.get('custom');
  const custom = customDirective && customHttpOf(customDirective, errors, describe);
  if (lambdaDirective && customDirective) errors.at(describe('use either @lambda or @custom, not both'), customDirective);
  const customLogic = lambdaDirective !== undefined || customDirective !== undefined;
  if (customLogic) {
    for (const storage of STORAGE_DIRECTIVES) {
      const directive = directives.get(storage);
      const by = lambdaDirective ? '@lambda' : '@custom';
      if (directive) errors.at(describe(`@${storage} cannot be combined with ${by}: the field is computed, not stored`), directive);
    }
  }

  // An unknown type is reported once (above); checks that depend on the type would only repeat it.
  const typeIsKnown = context.kindOf(shape.namedType) !== undefined;
  const isIdField = of.kind === 'scalar' && of.scalar === 'ID' && !shape.list;
  if (context.position === 'type' && of.kind === 'scalar' && of.scalar === 'ID' && shape.list) {
    errors.at(describe(`an ID field cannot be a list (${shape.typeText}); a type has one ID, its identity`), node.type);
  }

  // Dgraph stores no list of booleans ([Boolean] has no Dgraph schema type).
  if (context.position === 'type' && of.kind === 'scalar' && of.scalar === 'Boolean' && shape.list) {
    errors.at(describe('Boolean lists are invalid'), node.type);
  }

  const idDirective = directives.get('id');
  const suppliedId = isIdField && idDirective !== undefined && context.position === 'type';
  if (suppliedId) checkNoArguments(idDirective, errors, describe);

  const model: FieldModel = {
    name,
    typeText: shape.typeText,
    namedType: shape.namedType,
    of,
    list: shape.list,
    nonNull: shape.nonNull,
    itemNonNull: shape.itemNonNull,
    isIdField,
    isUniqueId: typeIsKnown && !suppliedId && uniqueIdOf(directives.get('id'), of, shape, errors, describe),
    search: [],
    external: false,
    lambda: lambdaDirective !== undefined,
    args: argumentModelsOf(node, context, { customLogic, of }, errors, describe),
    loc: locationOf(node.name),
  };
  if (suppliedId) model.suppliedByCaller = true;
  if (model.isUniqueId && idDirective && isUniqueAcrossInterface(idDirective) && context.kindOf(context.owner) === 'interface') {
    model.uniqueAcrossInterface = context.owner;
  }
  if (custom) model.custom = custom;
  if (node.description) model.description = node.description.value;

  const search = directives.get('search');
  if (search && !customLogic && typeIsKnown) model.search = searchIndexesOf(search, of, errors, describe);

  const hasInverse = directives.get('hasInverse');
  if (hasInverse) {
    const inverseField = inverseFieldOf(hasInverse, errors, describe);
    if (of.kind !== 'relation') {
      errors.at(describe(`@hasInverse applies to relation fields only; this field holds ${shape.namedType}`), hasInverse);
    } else if (inverseField && !customLogic) {
      model.hasInverse = inverseField;
    }
  }

  const external = directives.get('external');
  if (external) {
    checkNoArguments(external, errors, describe);
    model.external = true;
  }
  const provides = directives.get('provides');
  const provided = provides && fieldSelectionOf(provides, nested, errors, describe);
  if (provided) {
    model.provides = provided.names;
    model.providesSelection = provided.text;
  }
  const requires = directives.get('requires');
  const required = requires && fieldSelectionOf(requires, nested, errors, describe);
  if (required) {
    model.requires = required.names;
    model.requiresSelection = required.text;
  }
  const marks = federationMarksOf(collected, context.link.minor, errors, describe);
  if (marks) model.marks = marks;

  const withSubscription = directives.get('withSubscription');
  if (withSubscription) {
    checkNoArguments(withSubscription, errors, describe);
    model.withSubscription = true;
  }

  const deprecated = directives.get('deprecated');
  if (deprecated) model.deprecationReason = deprecationReasonOf(deprecated, errors, describe);

  return { model, node, directives, origin: context.owner };
}

function fieldKindOf(shape: TypeShape, context: FieldContext, errors: ErrorSink, describe: Describe): FieldKind {
  const kind = context.kindOf(shape.namedType);
  switch (kind) {
    case 'scalar':
      return { kind: 'scalar', scalar: shape.namedType as ScalarName };
    case 'enum':
      return { kind: 'enum', enumName: shape.namedType };
    case 'type':
    case 'interface':
    case 'union':
    case 'remote':
      return { kind: 'relation', target: shape.namedType };
    case 'root':
      errors.at(describe(`${shape.namedType} is a root type and cannot be the type of a field`), shape.namedTypeNode);
      return { kind: 'relation', target: shape.namedType };
    case 'input':
      errors.at(describe(`${shape.namedType} is an input type; it can be the type of an argument, not of a field`), shape.namedTypeNode);
      return { kind: 'relation', target: shape.namedType };
    case undefined:
      errors.at(describe(`unknown type ${shape.namedType}`), shape.namedTypeNode);
      return { kind: 'relation', target: shape.namedType };
  }
}

function uniqueIdOf(directive: DirectiveNode | undefined, of: FieldKind, shape: TypeShape, errors: ErrorSink, describe: Describe): boolean {
  if (!directive) return false;
  checkIdArguments(directive, errors, describe);
  if (of.kind !== 'scalar' || !UNIQUE_ID_SCALARS.includes(of.scalar) || shape.list) {
    errors.at(describe(`@id applies to the ID field (the caller then supplies it) or to String, Int or Int64 fields that are not lists, not to ${shape.typeText}`), directive);
    return false;
  }
  return true;
}

/**
 * Arguments of computed fields (@lambda / @custom) reach the custom logic. A stored scalar or enum field
 * may declare arguments too (Dgraph accepts and ignores them); a stored relation's arguments are the
 * generated filter, order, first and offset. Fields of types never use those reserved names.
 */
function argumentModelsOf(
  node: FieldDefinitionNode,
  context: FieldContext,
  field: { customLogic: boolean; of: FieldKind },
  errors: ErrorSink,
  describe: Describe,
): ArgumentModel[] {
  const args = node.arguments ?? [];
  if (args.length === 0) return [];
  if (!field.customLogic && field.of.kind === 'relation') {
    errors.at(describe('a stored relation takes only its generated arguments (filter, order, first, offset); declare none'), args[0]!);
    return [];
  }
  if (context.position === 'type') {
    for (const argument of args) {
      if (RESERVED_ARGUMENTS.includes(argument.name.value)) {
        errors.at(describe(`can't have ${argument.name.value} as an argument because it is a reserved argument`), argument.name);
      }
    }
  }
  const models: ArgumentModel[] = [];
  const seen = new Set<string>();
  for (const argument of args) {
    const model = argumentModelOf(argument, context, errors, (message) => describe(`argument ${argument.name.value}: ${message}`));
    if (seen.has(model.name)) errors.at(describe(`argument ${model.name} is declared more than once`), argument.name);
    seen.add(model.name);
    models.push(model);
  }
  return models;
}

function argumentModelOf(argument: InputValueDefinitionNode, context: FieldContext, errors: ErrorSink, describe: Describe): ArgumentModel {
  const shape = shapeOf(argument.type);
  const kind = context.kindOf(shape.namedType);
  if (kind === undefined) {
    errors.at(describe(`unknown type ${shape.namedType}`), shape.namedTypeNode);
  } else if (kind !== 'scalar' && kind !== 'enum' && kind !== 'input') {
    errors.at(describe(`${shape.namedType} is not a scalar, enum or input type; arguments take those only`), shape.namedTypeNode);
  }
  if (argument.defaultValue) errors.at(describe('default values are not supported'), argument.defaultValue);
  for (const directive of argument.directives ?? []) {
    if (!isIgnoredDirective(context.link, directive.name.value)) errors.at(describe(`@${directive.name.value} is not allowed on an argument`), directive);
  }
  return { name: argument.name.value, typeText: shape.typeText, namedType: shape.namedType };
}
