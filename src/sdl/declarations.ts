import {
  Kind,
  type DefinitionNode,
  type DocumentNode,
  type EnumTypeDefinitionNode,
  type FieldDefinitionNode,
  type InputObjectTypeDefinitionNode,
  type InterfaceTypeDefinitionNode,
  type NameNode,
  type ObjectTypeDefinitionNode,
  type ObjectTypeExtensionNode,
  type UnionTypeDefinitionNode,
} from 'graphql';
import { ErrorSink, typeMessage } from './errors.js';
import { generatedEnumNames, generatedTypeNames, isSharedGeneratedName } from './generated-names.js';
import { SCALAR_NAMES } from './model.js';
import { isReservedWord, reservedTypeNameMessage } from './reserved-names.js';

/** A user object type or interface, as declared. */
export interface ObjectDeclaration {
  name: string;
  kind: 'type' | 'interface';
  node: ObjectTypeDefinitionNode | ObjectTypeExtensionNode | InterfaceTypeDefinitionNode;
  /** Written as `extend type T`: the federation spelling of `@extends`. */
  extendSyntax: boolean;
}

export interface EnumDeclaration {
  name: string;
  node: EnumTypeDefinitionNode;
  values: string[];
}

/** The definitions of a schema document, sorted by what they declare. */
export interface Declarations {
  objects: Map<string, ObjectDeclaration>;
  enums: Map<string, EnumDeclaration>;
  /** Fields of `type Query` / `type Mutation` (and their `extend type` spellings), in order. */
  queryFields: FieldDefinitionNode[];
  mutationFields: FieldDefinitionNode[];
  /** User-declared `input` types (argument types of custom operations and fields), by name. */
  inputs: Map<string, InputObjectTypeDefinitionNode>;
  /** `union U = A | B` definitions (checked by unions.ts). */
  unions: Map<string, UnionTypeDefinitionNode>;
  /** Types, interfaces and unions marked `@remote` (read by remote-types.ts), kept apart from the stored ones. */
  remote: Map<string, RemoteDeclaration>;
}

/** A `@remote` type, interface or union, as declared. */
export interface RemoteDeclaration {
  name: string;
  kind: 'type' | 'interface' | 'union';
  node: ObjectTypeDefinitionNode | ObjectTypeExtensionNode | InterfaceTypeDefinitionNode | UnionTypeDefinitionNode;
}

/** `@remote`: Dgraph's mark of a type that is not stored, only answered by custom logic. */
export const REMOTE_DIRECTIVE = 'remote';

function isRemote(definition: { directives?: readonly { name: { value: string } }[] | undefined }): boolean {
  return (definition.directives ?? []).some((directive) => directive.name.value === REMOTE_DIRECTIVE);
}

export const ROOT_TYPES = ['Query', 'Mutation'] as const;

/**
 * `isIgnored`: directives the schema defines for itself, which mean nothing here (see federation-link.ts);
 * their uses on enum values and on Query/Mutation are skipped like everywhere else.
 */
export function collectDeclarations(document: DocumentNode, errors: ErrorSink, isIgnored: (directive: string) => boolean = () => false): Declarations {
  const declarations: Declarations = { objects: new Map(), enums: new Map(), queryFields: [], mutationFields: [], inputs: new Map(), unions: new Map(), remote: new Map() };
  const firstNameNode = new Map<string, NameNode>();

  const claimName = (name: NameNode): boolean => {
    const earlier = firstNameNode.get(name.value);
    if (earlier) {
      errors.at(typeMessage(name.value, 'the name is defined more than once'), earlier, name);
      return false;
    }
    firstNameNode.set(name.value, name);
    return nameIsUsable(name, errors);
  };

  for (const definition of document.definitions) {
    switch (definition.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.OBJECT_TYPE_EXTENSION: {
        const name = definition.name.value;
        if (name === 'Query' || name === 'Mutation') {
          collectRootType(definition, declarations, errors, isIgnored);
        } else if (name === 'Subscription') {
          errors.at(typeMessage(name, 'the Subscription type is generated: mark a type or a @lambda Query field @withSubscription'), definition.name);
        } else if (isRemote(definition)) {
          if (claimName(definition.name)) declarations.remote.set(name, { name, kind: 'type', node: definition });
        } else if (claimName(definition.name)) {
          declarations.objects.set(name, {
            name,
            kind: 'type',
            node: definition,
            extendSyntax: definition.kind === Kind.OBJECT_TYPE_EXTENSION,
          });
        }
        break;
      }
      case Kind.INTERFACE_TYPE_DEFINITION:
        if (definition.interfaces && definition.interfaces.length > 0) {
          errors.at(typeMessage(definition.name.value, 'an interface cannot implement other interfaces here'), definition.interfaces[0]);
        }
        if (isRemote(definition)) {
          if (claimName(definition.name)) declarations.remote.set(definition.name.value, { name: definition.name.value, kind: 'interface', node: definition });
        } else if (claimName(definition.name)) {
          declarations.objects.set(definition.name.value, { name: definition.name.value, kind: 'interface', node: definition, extendSyntax: false });
        }
        break;
      case Kind.ENUM_TYPE_DEFINITION:
        if (claimName(definition.name)) {
          declarations.enums.set(definition.name.value, { name: definition.name.value, node: definition, values: enumValuesOf(definition, errors, isIgnored) });
        }
        break;
      case Kind.INPUT_OBJECT_TYPE_DEFINITION:
        if (claimName(definition.name)) declarations.inputs.set(definition.name.value, definition);
        break;
      case Kind.UNION_TYPE_DEFINITION:
        if (!claimName(definition.name)) break;
        if (isRemote(definition)) declarations.remote.set(definition.name.value, { name: definition.name.value, kind: 'union', node: definition });
        else declarations.unions.set(definition.name.value, definition);
        break;
      case Kind.SCHEMA_EXTENSION:
      case Kind.DIRECTIVE_DEFINITION:
        // Read by federation-link.ts: `extend schema @link(...)` and the definitions of composed directives.
        break;
      default:
        errors.at(unsupportedMessage(definition), definition);
    }
  }
  reportGeneratedNameClashes(declarations, firstNameNode, errors);
  return declarations;
}

function nameIsUsable(name: NameNode, errors: ErrorSink): boolean {
  if (name.value.startsWith('_')) {
    errors.at(typeMessage(name.value, 'names starting with "_" are reserved'), name);
    return false;
  }
  if (isReservedWord(name.value)) {
    errors.at(reservedTypeNameMessage(name.value, 'type'), name);
    return false;
  }
  return true;
}

function collectRootType(
  definition: ObjectTypeDefinitionNode | ObjectTypeExtensionNode,
  declarations: Declarations,
  errors: ErrorSink,
  isIgnored: (directive: string) => boolean,
): void {
  const name = definition.name.value;
  for (const directive of definition.directives ?? []) {
    if (!isIgnored(directive.name.value)) errors.at(typeMessage(name, `@${directive.name.value} is not allowed on ${name}`), directive);
  }
  if (definition.interfaces && definition.interfaces.length > 0) {
    errors.at(typeMessage(name, `${name} cannot implement interfaces`), definition.interfaces[0]);
  }
  const target = name === 'Query' ? declarations.queryFields : declarations.mutationFields;
  target.push(...(definition.fields ?? []));
}

function enumValuesOf(definition: EnumTypeDefinitionNode, errors: ErrorSink, isIgnored: (directive: string) => boolean): string[] {
  const name = definition.name.value;
  for (const directive of definition.directives ?? []) {
    // `@remote` on an enum or an input means nothing here: neither is ever stored.
    if (!isIgnored(directive.name.value) && directive.name.value !== REMOTE_DIRECTIVE) errors.at(typeMessage(name, `@${directive.name.value} is not allowed on an enum`), directive);
  }
  const values: string[] = [];
  const seen = new Map<string, NameNode>();
  for (const value of definition.values ?? []) {
    const valueName = value.name.value;
    const earlier = seen.get(valueName);
    if (earlier) {
      errors.at(typeMessage(name, `enum value ${valueName} is declared more than once`), earlier, value.name);
      continue;
    }
    seen.set(valueName, value.name);
    values.push(valueName);
    for (const directive of value.directives ?? []) {
      if (directive.name.value !== 'deprecated' && !isIgnored(directive.name.value)) {
        errors.at(typeMessage(name, `enum value ${valueName}: @${directive.name.value} is not allowed on an enum value`), directive);
      }
    }
  }
  if (values.length === 0 && seen.size === 0) errors.at(typeMessage(name, 'an enum needs at least one value'), definition.name);
  return values;
}

function unsupportedMessage(definition: DefinitionNode): string {
  switch (definition.kind) {
    case Kind.SCALAR_TYPE_DEFINITION:
      return typeMessage(definition.name.value, `custom scalars are not supported (built in: ${SCALAR_NAMES.join(', ')})`);
    case Kind.INTERFACE_TYPE_EXTENSION:
    case Kind.ENUM_TYPE_EXTENSION:
    case Kind.SCALAR_TYPE_EXTENSION:
    case Kind.UNION_TYPE_EXTENSION:
    case Kind.INPUT_OBJECT_TYPE_EXTENSION:
      return typeMessage(definition.name.value, 'only object types can be extended (`extend type`)');
    case Kind.SCHEMA_DEFINITION:
      return 'schema definitions are not supported; the root types are always Query and Mutation';
    default:
      return 'a schema holds type definitions only; operations and fragments are not allowed';
  }
}

/** A user type named like something generated for another type (`TaskFilter` next to `Task`) would clash. */
function reportGeneratedNameClashes(declarations: Declarations, nameNodes: Map<string, NameNode>, errors: ErrorSink): void {
  const generatedBy = new Map<string, string>();
  for (const name of declarations.objects.keys()) {
    for (const generated of generatedTypeNames(name)) generatedBy.set(generated, `type ${name}`);
  }
  for (const name of declarations.enums.keys()) {
    for (const generated of generatedEnumNames(name)) generatedBy.set(generated, `enum ${name}`);
  }
  for (const [name, node] of nameNodes) {
    const owner = generatedBy.get(name);
    if (owner) {
      errors.at(typeMessage(name, `the name clashes with ${name}, which the generated API declares for ${owner}`), node);
    } else if (isSharedGeneratedName(name)) {
      errors.at(typeMessage(name, `the name clashes with ${name}, a filter input of the generated API`), node);
    }
  }
}
