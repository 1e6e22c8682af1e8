import type { EnumTypeDefinitionNode } from 'graphql';
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
