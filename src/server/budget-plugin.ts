/**
 * Ends a request that exceeded its budget (see limits/budget.ts) with that one error. Past the deadline
 * or the object cap every field that was still to resolve fails with the same error, which would
 * answer with as many errors and a partial answer; the client gets `data: null` and the one error that
 * says which limit stopped the request and which flag raises it. Also stops the budget's timer.
 */
import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { RequestBudget } from '../limits/budget.js';

/** The request's budget; a server with its own context factory may have none. */
function budgetOf(contextValue: BaseContext): RequestBudget | undefined {
  const budget = (contextValue as { budget?: unknown }).budget;
  return budget instanceof RequestBudget ? budget : undefined;
}

export function budgetPlugin(): ApolloServerPlugin<BaseContext> {
  // The budget lives on the request's context, so one listener serves every request.
  const listener: GraphQLRequestListener<BaseContext> = {
    async willSendResponse({ contextValue, response }) {
      const budget = budgetOf(contextValue)!;
      budget.release();
      const exceeded = budget.exceeded;
      if (!exceeded || response.body.kind !== 'single') return;
      response.body.singleResult = { data: null, errors: [{ message: exceeded.message, extensions: { ...exceeded.extensions } }] };
    },
  };
  return {
    async requestDidStart({ contextValue }) {
      return budgetOf(contextValue) ? listener : undefined;
    },
  };
}
