/**
 * Ends a request that exceeded its budget (see limits/budget.ts) with that one error. Past the deadline
 * or the object cap every field that was still to resolve fails with the same error, which would
 * answer with as many errors and a partial answer; the client gets `data: null` and the one error that
 * says which limit stopped the request and which flag raises it. Also stops the budget's timer.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { RequestBudget } from '../limits/budget.js';

export function budgetPlugin(): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart({ contextValue }) {
      const budget = (contextValue as { budget?: unknown }).budget;
      // A server with its own context factory may have no budget.
      if (!(budget instanceof RequestBudget)) return;
      return {
        async willSendResponse({ response }) {
          budget.release();
          const exceeded = budget.exceeded;
          if (!exceeded || response.body.kind !== 'single') return;
          response.body.singleResult = { data: null, errors: [{ message: exceeded.message, extensions: { ...exceeded.extensions } }] };
        },
      };
    },
  };
}
