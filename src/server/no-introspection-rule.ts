import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';

/**
 * Refuses `__schema` and `__type` (introspection) when the service runs with `--introspection=false`.
 * `__typename` stays allowed: clients such as Apollo Client add it to every selection. `_service { sdl }`
 * is an ordinary field, so a federation gateway still reads the subgraph's schema.
 */
export function noIntrospectionRule(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      const name = node.name.value;
      if (name === '__schema' || name === '__type') {
        context.reportError(
          new GraphQLError(`introspection is disabled on this service, so ${name} cannot be queried (the service's --introspection switch)`, {
            nodes: [node],
          }),
        );
      }
    },
  };
}
