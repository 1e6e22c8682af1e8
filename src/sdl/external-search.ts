import { fieldMessage, type ErrorSink } from './errors.js';
import type { TypeDraft } from './types.js';

/**
 * `@search` on an `@external` field that no `@key` names: the field belongs to another service and is not
 * stored here, so there is nothing to index (a key field is stored as the entity's identity). Dgraph's rule
 * and wording.
 */
export function checkSearchOnExternal(draft: TypeDraft, errors: ErrorSink): void {
  const keyNames = new Set(draft.directives.keys.flatMap((key) => key.selection.map((item) => item.name)));
  for (const field of draft.ownFields) {
    const search = field.directives.get('search');
    if (!search || !field.directives.has('external') || keyNames.has(field.model.name)) continue;
    errors.at(fieldMessage(draft.name, field.model.name, '@search directive can not be defined on @external fields that are not @key'), search);
  }
}
