import { createHash } from 'node:crypto';

import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import type { RequestHandler } from 'express';
import { Kind, type OperationDefinitionNode } from 'graphql';

import { type AnswerCache, keptJson } from '../answer-cache';
import { sendKeptAnswer } from '../web/kept-json';
import type { GraphQLContext } from './context';
import { persistedQueryHash } from './persisted-queries';

/** The media types Apollo answers a single result in, the one it sends when the client names neither first. */
const RESULT_TYPES = ['application/json', 'application/graphql-response+json'];

/**
 * The kept answer's key of a query: the document's text by its SHA-256 (Apollo's queryHash), the operation
 * and the variables.
 */
function keyOf(queryHash: string, operationName: unknown, variables: unknown): string {
  return `graphql ${queryHash} ${operationName ?? ''} ${JSON.stringify(variables ?? {})}`;
}

/**
 * Keeps the results of queries whose root fields all read only data the user's data version covers (`roots`),
 * as the bytes sent, and answers the same query with the same variables from them until that version or the
 * quarter-hour changes (see AnswerCache). Apollo parses, validates and limits the document of every answer it
 * makes; keptQueryAnswers sends the kept ones before Apollo sees the request. A burst of the same query waits
 * for the one being made. Results with errors are never kept.
 */
export function keptAnswersPlugin(
  answers: AnswerCache,
  roots: ReadonlySet<string>,
): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      let done: ReturnType<AnswerCache['startMaking']> | undefined;
      return {
        async responseForOperation({ operation, contextValue, request, queryHash }) {
          const caller = contextValue.caller;
          if (!answers.keeps || !caller || queryHash === undefined || !readsOnly(operation, roots)) return null;
          const key = keyOf(queryHash, request.operationName, request.variables);
          // Checked before anything is awaited, so that a request that finds none is the one making it.
          const theirs = answers.madeByAnother(caller, key);
          const kept = answers.get(caller, key) ?? (theirs && (await theirs));
          // One keptQueryAnswers did not send: it came as this one was being made, or by hash alone.
          if (kept)
            return {
              http: { status: undefined, headers: new HeaderMap() },
              body: { kind: 'single', singleResult: JSON.parse(Buffer.concat(kept.chunks).toString()) },
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
          // As Apollo writes it (stringifyResult): the keys it has, and a newline.
          done(result?.data && !result.errors ? keptJson(`${JSON.stringify({ data: result.data })}\n`) : undefined);
        },
      };
    },
  };
}

/**
 * Sends the kept answer (see keptAnswersPlugin) of a POSTed query (its text, or its hash alone: an automatic
 * persisted query), or the one being made for it, as the bytes kept, in the coding asked for. The same text of
 * a document was parsed, validated and limited when its answer was made (for this user and these variables), so
 * nothing about it is done again. Anything else (GET requests too: Apollo's CSRF rule for them must apply), and
 * a query with no kept answer, goes on to Apollo, whose plugin above answers kept ones.
 */
export function keptQueryAnswers(answers: AnswerCache): RequestHandler {
  return async (req, res, next) => {
    const body: unknown = req.body;
    const caller = req.caller;
    if (!answers.keeps || req.method !== 'POST' || !caller || !req.is('application/json') || !isRecord(body))
      return next();
    const { query, operationName, variables, extensions } = body;
    const type = req.accepts(RESULT_TYPES);
    const hash = queryHashOf(query, persistedQueryHash(extensions));
    if (
      hash === undefined ||
      !(operationName === undefined || operationName === null || typeof operationName === 'string') ||
      !(variables === undefined || variables === null || isRecord(variables)) ||
      !type
    )
      return next();
    const key = keyOf(hash, operationName, variables);
    const theirs = answers.madeByAnother(caller, key);
    const kept = answers.get(caller, key) ?? (theirs && (await theirs));
    if (!kept) return next();
    await sendKeptAnswer(req, res, answers, caller, key, kept, `${type}; charset=utf-8`);
  };
}

/**
 * Apollo's queryHash of a request: the SHA-256 of its text, or the hash an automatic persisted query names
 * alone (a kept answer under it was made from a text Apollo found by it, so of that hash). A text with another
 * hash beside it is Apollo's to refuse.
 */
function queryHashOf(query: unknown, persisted: string | undefined): string | undefined {
  if (query === undefined) return persisted;
  if (typeof query !== 'string') return undefined;
  const hash = createHash('sha256').update(query).digest('hex');
  return persisted === undefined || persisted === hash ? hash : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
