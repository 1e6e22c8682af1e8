import type { InputObjectTypeDefinitionNode } from 'graphql';
import { REMOTE_DIRECTIVE } from './declarations.js';
import { fieldMessage, locationOf, typeMessage, type ErrorSink } from './errors.js';
import { isIgnoredDirective, type FederationLink } from './federation-link.js';
import type { NameKind } from './fields.js';
import type { InputFieldModel, InputModel } from './model.js';
import { shapeOf } from './type-ref.js';

/**
 * User-declared `input` types, as Dgraph accepts them: the argument types of `@lambda`/`@custom`
 * operations and fields, printed into the generated API as written. Their fields hold scalars, enums or
 * other input types; the service never stores them, it hands the values to the custom logic.
 */
export function inputModelsOf(
  nodes: ReadonlyMap<string, InputObjectTypeDefinitionNode>,
  kindOf: (name: string) => NameKind | undefined,
  link: FederationLink,
  errors: ErrorSink,
): Map<string, InputModel> {
  const inputs = new Map<string, InputModel>();
  for (const [name, node] of nodes) {
    for (const directive of node.directives ?? []) {
      if (!isIgnoredDirective(link, directive.name.value) && directive.name.value !== REMOTE_DIRECTIVE) {
        errors.at(typeMessage(name, `@${directive.name.value} is not allowed on an input type`), directive);
      }
    }
    const fields: InputFieldModel[] = [];
    for (const fieldNode of node.fields ?? []) {
      const describe = (message: string): string => fieldMessage(name, fieldNode.name.value, message);
      if (fields.some((field) => field.name === fieldNode.name.value)) {
        errors.at(typeMessage(name, `field ${fieldNode.name.value} is declared more than once`), fieldNode.name);
        continue;
      }
      const shape = shapeOf(fieldNode.type);
      const kind = kindOf(shape.namedType);
      if (kind === undefined) errors.at(describe(`unknown type ${shape.namedType}`), shape.namedTypeNode);
      else if (kind !== 'scalar' && kind !== 'enum' && kind !== 'input') {
        errors.at(describe(`${shape.namedType} is not a scalar, enum or input type; an input type's fields take those only`), shape.namedTypeNode);
      }
      if (shape.nestedList) errors.at(describe(`lists of lists (${shape.typeText}) are not supported`), fieldNode.type);
      if (fieldNode.defaultValue) errors.at(describe('default values are not supported'), fieldNode.defaultValue);
      for (const directive of fieldNode.directives ?? []) {
        if (!isIgnoredDirective(link, directive.name.value)) errors.at(describe(`@${directive.name.value} is not allowed on a field of an input type`), directive);
      }
      const field: InputFieldModel = { name: fieldNode.name.value, typeText: shape.typeText, namedType: shape.namedType };
      if (fieldNode.description) field.description = fieldNode.description.value;
      fields.push(field);
    }
    if (fields.length === 0) errors.at(typeMessage(name, 'an input type needs at least one field'), node.name);
    const model: InputModel = { name, fields, loc: locationOf(node.name) };
    if (node.description) model.description = node.description.value;
    inputs.set(name, model);
  }
  return inputs;
}
