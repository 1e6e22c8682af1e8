import { GraphQLError, Kind, parse, type SelectionSetNode } from 'graphql';
import type { FieldSelection } from './model.js';

/**
 * A federation `fields:` argument (`"sku package"`, `"sku variation { id }"`) read as a selection of
 * fields: plain field names, nested where `nested` allows it. Aliases, arguments, directives and
 * fragments are refused. Returns the selection, or why the text is not one.
 */
export function parseFieldSelection(text: string, nested: boolean): { selection: FieldSelection[] } | { problem: string } {
  let selectionSet: SelectionSetNode;
  try {
    const document = parse(`{${text}}`, { noLocation: true });
    const [operation] = document.definitions;
    if (document.definitions.length !== 1 || operation?.kind !== Kind.OPERATION_DEFINITION) return { problem: 'is not a selection of fields' };
    selectionSet = operation.selectionSet;
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return { problem: `is not a selection of fields (${error.message.replace(/^Syntax Error: /, '')})` };
  }
  return selectionOf(selectionSet, nested);
}

function selectionOf(selectionSet: SelectionSetNode, nested: boolean): { selection: FieldSelection[] } | { problem: string } {
  const selection: FieldSelection[] = [];
  for (const node of selectionSet.selections) {
    if (node.kind !== Kind.FIELD) return { problem: 'uses a fragment; name fields only' };
    const name = node.name.value;
    if (node.alias) return { problem: `aliases ${name}; name fields only` };
    if ((node.arguments ?? []).length > 0) return { problem: `passes arguments to ${name}` };
    if ((node.directives ?? []).length > 0) return { problem: `puts a directive on ${name}` };
    if (selection.some((item) => item.name === name)) return { problem: `names ${name} twice` };
    if (!node.selectionSet) {
      selection.push({ name });
      continue;
    }
    if (!nested) return { problem: `selects inside ${name}; nested selections need Federation 2` };
    const inner = selectionOf(node.selectionSet, nested);
    if ('problem' in inner) return inner;
    selection.push({ name, selections: inner.selection });
  }
  return { selection };
}

/** The normal printed form: names separated by one space, sub-selections in `{ }`. */
export function printFieldSelection(selection: readonly FieldSelection[]): string {
  return selection.map((item) => (item.selections ? `${item.name} { ${printFieldSelection(item.selections)} }` : item.name)).join(' ');
}
