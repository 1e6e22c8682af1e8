/**
 * An Apollo Server plugin that counts the phases of the request pipeline, so tests can see whether a
 * request was parsed, validated or executed, and what Apollo's metrics say about persisted queries.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';

export interface PipelineCounts {
  parses: number;
  validations: number;
  executions: number;
  /** Responses whose request Apollo's metrics mark as a persisted query hit / registration. */
  persistedQueryHits: number;
  persistedQueryRegistrations: number;
}

export function newPipelineCounts(): PipelineCounts {
  return { parses: 0, validations: 0, executions: 0, persistedQueryHits: 0, persistedQueryRegistrations: 0 };
}

export function pipelineSpy(counts: PipelineCounts): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart() {
      return {
        async parsingDidStart() {
          counts.parses += 1;
        },
        async validationDidStart() {
          counts.validations += 1;
        },
        async executionDidStart() {
          counts.executions += 1;
        },
        async willSendResponse({ metrics }) {
          if (metrics.persistedQueryHit) counts.persistedQueryHits += 1;
          if (metrics.persistedQueryRegister) counts.persistedQueryRegistrations += 1;
        },
      };
    },
  };
}
