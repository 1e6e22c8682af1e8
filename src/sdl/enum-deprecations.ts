import type { EnumTypeDefinitionNode } from 'graphql';
import type { EnumModel } from './model.js';
import { typeMessage, type ErrorSink } from './errors.js';
import { deprecationReasonOf } from './field-directives.js';

/** `@deprecated` on enum values: the reason by value name (GraphQL's default reason when none is given). */
export function enumValueDeprecations(definition: EnumTypeDefinitionNode, errors: ErrorSink): Record<string, string> {
  const reasons: Record<string, string> = {};
  for (const value of definition.values ?? []) {
    const deprecated = value.directives?.find((directive) => directive.name.value === 'deprecated');
    if (!deprecated) continue;
    const describe = (message: string) => typeMessage(definition.name.value, `enum value ${value.name.value}: ${message}`);
    reasons[value.name.value] = deprecationReasonOf(deprecated, errors, describe);
  }
  return reasons;
}

/** The descriptions of an enum and of its values, as written (kept for introspection, as Dgraph keeps them). */
export function enumDescriptions(definition: EnumTypeDefinitionNode): Pick<EnumModel, 'description' | 'valueDescriptions'> {
  const described: Pick<EnumModel, 'description' | 'valueDescriptions'> = {};
  if (definition.description) described.description = definition.description.value;
  const values: Record<string, string> = {};
  for (const value of definition.values ?? []) {
    if (value.description) values[value.name.value] = value.description.value;
  }
  if (Object.keys(values).length > 0) described.valueDescriptions = values;
  return described;
}
