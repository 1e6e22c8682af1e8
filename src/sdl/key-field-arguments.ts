import { fieldMessage, type ErrorSink } from './errors.js';
import type { TypeDraft } from './types.js';

/**
 * A field a `@key` names cannot declare arguments: federation composition refuses arguments on key
 * fields, and the gateway would send none. (Dgraph accepts arguments on stored fields; on key fields the
 * federation rule wins.)
 */
export function checkKeyFieldArguments(draft: TypeDraft, errors: ErrorSink): void {
  const keyNames = new Set(draft.directives.keys.flatMap((key) => key.selection.map((item) => item.name)));
  for (const field of draft.fields) {
    const [first] = field.node.arguments ?? [];
    if (first && keyNames.has(field.model.name)) {
      errors.at(fieldMessage(draft.name, field.model.name, 'a field named by @key cannot take arguments'), first);
    }
  }
}
