import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { Kind, type OperationDefinitionNode } from 'graphql';
import type { AnswerCache } from '../answer-cache';
import type { GraphQLContext } from './context';

/**
 * Keeps the results of queries whose root fields all read only data the user's data version covers (`roots`),
 * and answers the same query with the same variables from the kept result until that version or the
 * quarter-hour changes (see AnswerCache). Apollo still parses, validates and limits every document; only
 * execution is skipped. Results with errors are never kept.
 */
export function keptAnswersPlugin(answers: AnswerCache, roots: ReadonlySet<string>): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      let pending: { request: string; madeAt: number } | null = null;
      return {
        async responseForOperation({ operation, contextValue, request, queryHash }) {
          const caller = contextValue.caller;
          if (!caller || !readsOnly(operation, roots)) return null;
          const key = `graphql ${queryHash} ${request.operationName ?? ''} ${JSON.stringify(request.variables ?? {})}`;
          const kept = answers.get<{ data: Record<string, unknown> }>(caller, key);
          // A fresh wrapper: the pipeline may add to the result it sends.
          if (kept) return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data: kept.data } } };
          pending = { request: key, madeAt: answers.quarterHour() };
          return null;
        },
        async willSendResponse({ response, contextValue }) {
          if (!pending || !contextValue.caller || response.body.kind !== 'single') return;
          const { data, errors } = response.body.singleResult;
          if (errors || !data) return;
          answers.keep(contextValue.caller, pending.request, { data }, JSON.stringify(data).length, pending.madeAt);
        },
      };
    },
  };
}

/** A query whose every root selection is a field of `roots` (or __typename). */
function readsOnly(operation: OperationDefinitionNode, roots: ReadonlySet<string>): boolean {
  return (
    operation.operation === 'query' &&
    operation.selectionSet.selections.every(
      (selection) => selection.kind === Kind.FIELD && (roots.has(selection.name.value) || selection.name.value === '__typename'),
    )
  );
}
