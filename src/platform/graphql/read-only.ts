import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';

import type { GraphQLContext } from './context';
import { rootFieldNames } from './input-guards';

/** The one mutation a READ_ONLY token may run: it revokes that token itself. */
const ALLOWED_TO_READ_ONLY = new Set(['logout']);

/**
 * The one place GraphQL enforces a token's scope: a READ_ONLY token's mutation is refused whole, before
 * anything runs, as FORBIDDEN (HTTP 403, as REST answers). Queries and subscriptions are reads.
 */
export const readOnlyTokens: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ contextValue, document, operation }) {
        if (operation?.operation !== 'mutation' || !contextValue.caller?.readOnly) return;
        if (rootFieldNames(operation.selectionSet, document).every((name) => ALLOWED_TO_READ_ONLY.has(name))) return;
        throw new GraphQLError('This token is read-only: it may not run mutations.', {
          extensions: { code: 'FORBIDDEN', http: { status: 403 } },
        });
      },
    };
  },
};
