import type { InputObjectTypeDefinitionNode } from 'graphql';
import { typeMessage, type ErrorSink } from './errors.js';
import type { InputModel } from './model.js';

/**
 * An input type that reaches itself through required fields (`input A { next: A! }`) could never be
 * written: a value would have to be infinite. GraphQL forbids it; reported once per cycle, at the input
 * type where it was found first, with the path of fields.
 */
export function checkInputCycles(
  inputs: ReadonlyMap<string, InputModel>,
  nodes: ReadonlyMap<string, InputObjectTypeDefinitionNode>,
  errors: ErrorSink,
): void {
  const reported = new Set<string>();
  const visit = (name: string, path: string[], onPath: string[]): void => {
    for (const field of inputs.get(name)?.fields ?? []) {
      if (!field.typeText.endsWith('!') || field.typeText.startsWith('[') || !inputs.has(field.namedType)) continue;
      const step = [...path, `${name}.${field.name}`];
      const start = onPath.indexOf(field.namedType);
      if (start >= 0) {
        const cycle = onPath.slice(start);
        const key = [...cycle].sort().join(' ');
        if (!reported.has(key)) {
          reported.add(key);
          const first = cycle[0]!;
          errors.at(typeMessage(first, `cannot reference itself through required fields (${step.slice(start).join(' → ')})`), nodes.get(first)!.name);
        }
      } else {
        visit(field.namedType, step, [...onPath, field.namedType]);
      }
    }
  };
  for (const name of inputs.keys()) visit(name, [], [name]);
}
