import {
  getArgumentValues, getNamedType, isObjectType, Kind,
  type FieldNode, type GraphQLResolveInfo, type SelectionSetNode,
} from 'graphql';

/** Reading the client's selection inside a resolver, fragments included. */

function collectFields(info: GraphQLResolveInfo, selectionSet: SelectionSetNode | undefined, into: FieldNode[]): void {
  if (!selectionSet) return;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) into.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) collectFields(info, selection.selectionSet, into);
    else collectFields(info, info.fragments[selection.name.value]?.selectionSet, into);
  }
}

/** Fields selected directly under the current field. */
export function selectedFields(info: GraphQLResolveInfo): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const node of info.fieldNodes) collectFields(info, node.selectionSet, fields);
  return fields;
}

export function selectedFieldNames(info: GraphQLResolveInfo): string[] {
  return [...new Set(selectedFields(info).map((field) => field.name.value))];
}

/** Each selection of `fieldName` under the current field, by response key, with its argument values. */
export function selectionsOf(info: GraphQLResolveInfo, fieldName: string): Array<{ responseKey: string; args: Record<string, unknown> }> {
  const returnType = getNamedType(info.returnType);
  if (!isObjectType(returnType)) return [];
  const definition = returnType.getFields()[fieldName];
  if (!definition) return [];
  return selectedFields(info)
    .filter((node) => node.name.value === fieldName)
    .map((node) => ({
      responseKey: node.alias?.value ?? node.name.value,
      args: getArgumentValues(definition, node, info.variableValues),
    }));
}
