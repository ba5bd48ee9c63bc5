import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import { Kind, type OperationDefinitionNode } from 'graphql';

import type { AnswerCache } from '../answer-cache';
import type { GraphQLContext } from './context';

/**
 * Keeps the results of queries whose root fields all read only data the user's data version covers (`roots`),
 * and answers the same query with the same variables from the kept result until that version or the
 * quarter-hour changes (see AnswerCache). Apollo still parses, validates and limits every document; only
 * execution is skipped; a burst of the same query waits for the one being made. Results with errors are never kept.
 */
export function keptAnswersPlugin(
  answers: AnswerCache,
  roots: ReadonlySet<string>,
): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      let done: ((made?: { answer: { data: Record<string, unknown> }; bytes: number }) => void) | undefined;
      return {
        async responseForOperation({ operation, contextValue, request, queryHash }) {
          const caller = contextValue.caller;
          if (!caller || !readsOnly(operation, roots)) return null;
          const key = `graphql ${queryHash} ${request.operationName ?? ''} ${JSON.stringify(request.variables ?? {})}`;
          type Result = { data: Record<string, unknown> };
          // Checked before anything is awaited, so that a request that finds none is the one making it.
          const theirs = answers.madeByAnother<Result>(caller, key);
          const kept = answers.get<Result>(caller, key) ?? (theirs && (await theirs));
          // A fresh wrapper: the pipeline may add to the result it sends.
          if (kept)
            return {
              http: { status: undefined, headers: new HeaderMap() },
              body: { kind: 'single', singleResult: { data: kept.data } },
            };
          done = answers.startMaking(caller, key);
          return null;
        },
        async didEncounterErrors() {
          done?.();
        },
        async willSendResponse({ response }) {
          if (!done) return;
          const result = response.body.kind === 'single' ? response.body.singleResult : undefined;
          done(
            result?.data && !result.errors
              ? { answer: { data: result.data }, bytes: JSON.stringify(result.data).length }
              : undefined,
          );
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
      (selection) =>
        selection.kind === Kind.FIELD && (roots.has(selection.name.value) || selection.name.value === '__typename'),
    )
  );
}
