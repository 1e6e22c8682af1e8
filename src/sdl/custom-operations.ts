import type { FieldDefinitionNode } from 'graphql';
import { fieldMessage, typeMessage, type ErrorSink } from './errors.js';
import { fieldDraftOf, type NameKind } from './fields.js';
import { generatedOperationNames } from './generated-names.js';
import type { FederationLink } from './federation-link.js';
import type { FieldModel } from './model.js';
import { subscribedOperationProblem } from './subscriptions.js';

/**
 * Fields of a user-declared `type Query` / `type Mutation`: custom operations, each resolved by `@lambda`
 * or `@custom(http:)`, and none named like a generated operation.
 */
export function customOperationsOf(
  root: 'Query' | 'Mutation',
  nodes: readonly FieldDefinitionNode[],
  typeNames: readonly string[],
  kindOf: (name: string) => NameKind | undefined,
  link: FederationLink,
  errors: ErrorSink,
): FieldModel[] {
  const generated = new Map<string, string>();
  for (const typeName of typeNames) {
    const names = generatedOperationNames(typeName);
    for (const name of root === 'Query' ? names.queries : names.mutations) generated.set(name, typeName);
  }

  const operations: FieldModel[] = [];
  const seen = new Map<string, FieldDefinitionNode>();
  for (const node of nodes) {
    const { model } = fieldDraftOf(node, { owner: root, position: 'root', kindOf, link }, errors);
    const describe = (message: string): string => fieldMessage(root, model.name, message);
    const earlier = seen.get(model.name);
    if (earlier) {
      errors.at(typeMessage(root, `field ${model.name} is declared more than once`), earlier.name, node.name);
      continue;
    }
    seen.set(model.name, node);
    const clashesWith = generated.get(model.name);
    if (clashesWith) {
      errors.at(describe(`the name is taken by the generated ${root === 'Query' ? 'query' : 'mutation'} for type ${clashesWith}`), node.name);
    }
    if (!model.lambda && !model.custom && !(node.directives ?? []).some((directive) => directive.name.value === 'custom')) {
      errors.at(describe(`a custom ${root === 'Query' ? 'query' : 'mutation'} needs @lambda or @custom(http: {...}) to resolve it`), node.name);
    }
    const subscriptionProblem = model.withSubscription ? subscribedOperationProblem(root, model) : undefined;
    if (subscriptionProblem) errors.at(describe(subscriptionProblem), node.name);
    operations.push(model);
  }
  return operations;
}
