import type { ApolloServerPlugin, BaseContext } from '@apollo/server';

/** graphql-js's suggestion at the end of a message: ` Did you mean "title"?`, `Did you mean the enum value "DONE"?`. */
const SUGGESTION = / ?Did you mean .+\?$/;

/**
 * Removes "Did you mean ...?" from every error a client receives, so that with introspection off the
 * schema's names cannot be guessed from misspellings. Apollo's `hideSchemaDetailsFromClientErrors` covers
 * validation errors only; this also covers variables (an input field or enum value that does not exist).
 */
export function hideSuggestionsPlugin(): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          for (const error of response.body.singleResult.errors ?? []) {
            (error as { message: string }).message = error.message.replace(SUGGESTION, '');
          }
        },
      };
    },
  };
}
