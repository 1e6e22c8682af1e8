import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { noteErrorCode, type PersistedQueryResult, type RequestObservation } from './request-observation.js';

/** The persisted query plugin's refusals that mean "this hash is not known here". */
const PERSISTED_QUERY_MISS_CODES = new Set(['PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_IN_LIST']);

/**
 * Fills in the request's observation from Apollo's pipeline: the operation once it is resolved (so only
 * names of operations that parsed and validated are reported), the codes of the errors as answered
 * (after error formatting), and what the persisted query plugin recorded on `requestContext.metrics`.
 * Requests without an observation (a lambda's `graphql()` call) are left alone.
 */
export function requestObservationPlugin(observationOf: (contextValue: BaseContext) => RequestObservation | undefined): ApolloServerPlugin<BaseContext> {
  // The observation lives on the request's context, so one listener serves every observed request.
  const listener: GraphQLRequestListener<BaseContext> = {
    async didResolveOperation({ contextValue, operation, operationName }) {
      if (!operation) return;
      const observation = observationOf(contextValue)!;
      observation.operationType = operation.operation;
      observation.operationName = operationName ?? '';
    },
    async willSendResponse({ contextValue, response, metrics }) {
      const observation = observationOf(contextValue)!;
      const errors = response.body.kind === 'single' ? response.body.singleResult.errors : response.body.initialResult.errors;
      for (const error of errors ?? []) {
        const code = error.extensions?.code;
        if (typeof code === 'string') noteErrorCode(observation, code);
      }
      observation.persistedQuery = persistedQueryResult(metrics, observation.errorCodes);
    },
  };
  return {
    async requestDidStart({ contextValue }) {
      return observationOf(contextValue) ? listener : undefined;
    },
  };
}

function persistedQueryResult(
  metrics: { persistedQueryHit?: boolean; persistedQueryRegister?: boolean },
  errorCodes: readonly string[],
): PersistedQueryResult | undefined {
  if (metrics.persistedQueryHit) return 'hit';
  if (metrics.persistedQueryRegister) return 'register';
  return errorCodes.some((code) => PERSISTED_QUERY_MISS_CODES.has(code)) ? 'miss' : undefined;
}
