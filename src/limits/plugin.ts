import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { LRUCache } from 'lru-cache';
import { Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import type { PageLimits } from '../query/pagination.js';
import { estimateCost } from './cost.js';
import { costRefusal } from './cost-refusal.js';
import { limitExceeded } from './errors.js';
import type { OperationLimits } from './settings.js';
import { scanOperationSource } from './source-scan.js';
import { valueDepth } from './variable-depth.js';

/**
 * A request refused before parsing gets this as its query, like persisted/plugin.ts does: Apollo Server
 * lets no hook answer before parsing (a throw there becomes a masked 500), and `didResolveOperation` is
 * the first hook whose thrown error is sent as it is, with its status.
 */
const REFUSED_REQUEST_PLACEHOLDER = '{ __typename }';

/**
 * Query texts that passed the source scan, so a client repeating a query pays for the scan once (it costs
 * about what parsing does, and Apollo caches only the parse). Bounded in entries and in characters.
 */
const ACCEPTED_SOURCES = { max: 1000, maxSize: 4 * 1024 * 1024 } as const;

/**
 * The checks of the operation limits that validation rules cannot make (see rules.ts for the others):
 * - the operation text's tokens and bracket nesting, before Apollo parses it (`requestDidStart`; the
 *   persisted query plugin, registered first, has replaced a refused query by then, and a query found
 *   by hash was checked when it was registered);
 * - once the operation and the variables are known (`didResolveOperation`): how deep each variable's
 *   value nests, and the cost when list sizes come from variables (`first: $n`, `_entities`'
 *   representations), which validation, cached per document, could not know.
 */
export function operationLimitsPlugin(limits: OperationLimits, pages: PageLimits): ApolloServerPlugin<BaseContext> {
  /** Whether an operation's cost depends on variables; Apollo reuses parsed documents, so this is computed once each. */
  const usesVariableSizes = new WeakMap<OperationDefinitionNode, boolean>();
  const acceptedSources = new LRUCache<string, true>({ ...ACCEPTED_SOURCES, sizeCalculation: (_accepted, text) => Math.max(1, text.length) });
  // Keeps no state of its own between hooks, so every accepted request shares it.
  const checkVariables: GraphQLRequestListener<BaseContext> = {
    async didResolveOperation({ request: { variables }, operation, schema, document }) {
      const refusal = variableLimitRefusal({ limits, pages, variables, operation, schema, document }, usesVariableSizes);
      if (refusal) throw refusal;
    },
  };
  return {
    async requestDidStart({ request }): Promise<GraphQLRequestListener<BaseContext>> {
      const text = request.query;
      if (typeof text === 'string' && !acceptedSources.get(text)) {
        const refusal = scanOperationSource(text, limits);
        if (refusal) {
          request.query = REFUSED_REQUEST_PLACEHOLDER;
          return refuseWith(refusal);
        }
        acceptedSources.set(text, true);
      }
      return checkVariables;
    },
  };
}

export interface OperationWithVariables {
  limits: OperationLimits;
  pages: PageLimits;
  variables: Record<string, unknown> | undefined;
  operation: OperationDefinitionNode | undefined | null;
  schema: GraphQLSchema;
  document: DocumentNode;
}

/**
 * The limits that depend on variable values, once the operation is known: the nesting of each variable's
 * value, and the cost when list sizes come from variables. Also called by live/ for subscriptions, which
 * graphql-ws runs without Apollo's plugins. `usesVariableSizes` remembers operations whose cost does not
 * depend on variables (validation already checked those).
 */
export function variableLimitRefusal(
  { limits, pages, variables, operation, schema, document }: OperationWithVariables,
  usesVariableSizes?: WeakMap<OperationDefinitionNode, boolean>,
): GraphQLError | undefined {
  for (const [name, value] of Object.entries(variables ?? {})) {
    const depth = valueDepth(value);
    if (depth > limits.maxInputDepth) {
      return limitExceeded('maxInputDepth', `the nesting of objects and lists in variable $${name}`, depth, limits.maxInputDepth, { code: ErrorCode.BAD_USER_INPUT });
    }
  }
  if (!operation || usesVariableSizes?.get(operation) === false) return undefined;
  const estimate = estimateCost({ schema, operation, fragments: fragmentsOf(document), ...pages, variables: variables ?? {} });
  usesVariableSizes?.set(operation, estimate.dependsOnVariables);
  return estimate.cost > limits.maxCost ? costRefusal(operation, estimate.cost, limits.maxCost, pages.defaultPageSize) : undefined;
}

function fragmentsOf(document: DocumentNode): (name: string) => FragmentDefinitionNode | undefined {
  const byName = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) byName.set(definition.name.value, definition);
  }
  return (name) => byName.get(name);
}

function refuseWith(error: GraphQLError): GraphQLRequestListener<BaseContext> {
  return {
    // Not async: thrown synchronously, this error wins over other plugins' hooks for the placeholder.
    didResolveOperation(): Promise<void> {
      throw error;
    },
  };
}
