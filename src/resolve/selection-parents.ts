import { TypeInfo, visit, visitWithTypeInfo, type FieldNode, type GraphQLResolveInfo, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';

/**
 * The type a field was selected on, as written in the query: the interface for `queryCharacter { bio }`,
 * the object type for `... on Human { bio }` or `queryHuman { bio }`. GraphQL execution tells only the
 * concrete type of the object (`info.parentType`); Dgraph names a lambda's resolver after the written one
 * (`field.GetObjectName()`, gqlparser's `ObjectDefinition`). Worked out once per operation and schema.
 */
const parentsBySchema = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, WeakMap<FieldNode, string>>>();

export function selectedOnType(info: GraphQLResolveInfo): string {
  let byOperation = parentsBySchema.get(info.schema);
  if (!byOperation) {
    byOperation = new WeakMap();
    parentsBySchema.set(info.schema, byOperation);
  }
  let parents = byOperation.get(info.operation);
  if (!parents) {
    parents = writtenParentTypes(info);
    byOperation.set(info.operation, parents);
  }
  return parents.get(info.fieldNodes[0]!) ?? info.parentType.name;
}

function writtenParentTypes(info: GraphQLResolveInfo): WeakMap<FieldNode, string> {
  const parents = new WeakMap<FieldNode, string>();
  const typeInfo = new TypeInfo(info.schema);
  const visitor = visitWithTypeInfo(typeInfo, {
    Field(node) {
      const parent = typeInfo.getParentType();
      if (parent) parents.set(node, parent.name);
    },
  });
  visit(info.operation, visitor);
  for (const fragment of Object.values(info.fragments)) visit(fragment, visitor);
  return parents;
}
