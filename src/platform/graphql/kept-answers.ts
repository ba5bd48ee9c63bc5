import { createHash } from 'node:crypto';

import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import type { RequestHandler } from 'express';
import { Kind, type OperationDefinitionNode } from 'graphql';

import { type AnswerCache, keptJson } from '../answer-cache';
import { isConfirmed } from '../caller';
import { sendKeptAnswer } from '../web/kept-json';
import type { GraphQLContext } from './context';
import { persistedQueryHash } from './persisted-queries';
import type { WrittenAnswers } from './written-answers';

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
 * Answers a POSTed query (its text, or its hash alone: an automatic persisted query) before Apollo sees it, in
 * the coding asked for: with its kept answer (see keptAnswersPlugin), or the one being made for it, as the
 * bytes kept; else, for an operation whose answer the database writes (see WrittenAnswers), with that answer,
 * kept in turn. The same text of a document was parsed, validated and limited when either was learnt, so
 * nothing about it is done again. The caller's token is checked here (identifyCaller leaves it to the read):
 * first when a kept answer needs its data version, else in the written answer's own statement. Anything else
 * (GET requests too: Apollo's CSRF rule for them must apply) goes on to Apollo, with the caller confirmed.
 */
export function keptQueryAnswers(answers: AnswerCache, written: WrittenAnswers): RequestHandler {
  const onToApollo: RequestHandler = (req, _res, next) => {
    if (!req.caller) return next();
    isConfirmed(req.caller).then((live) => {
      if (!live) req.caller = undefined;
      next();
    }, next);
  };
  return async (req, res, next) => {
    const body: unknown = req.body;
    const caller = req.caller;
    if (req.method !== 'POST' || !caller || !req.is('application/json') || !isRecord(body))
      return onToApollo(req, res, next);
    const { query, operationName, variables, extensions } = body;
    const type = req.accepts(RESULT_TYPES);
    const hash = queryHashOf(query, persistedQueryHash(extensions));
    if (
      hash === undefined ||
      !(operationName === undefined || operationName === null || typeof operationName === 'string') ||
      !(variables === undefined || variables === null || isRecord(variables)) ||
      !type ||
      !(answers.keeps || written.writes(hash, operationName))
    )
      return onToApollo(req, res, next);
    const key = keyOf(hash, operationName, variables);
    const contentType = `${type}; charset=utf-8`;
    if (answers.holds(caller, key) && !(await isConfirmed(caller))) {
      req.caller = undefined;
      return next();
    }
    const theirs = answers.madeByAnother(caller, key);
    const kept = answers.get(caller, key) ?? (theirs && (await theirs));
    if (kept) return sendKeptAnswer(req, res, answers, caller, key, kept, contentType);
    if (!written.writes(hash, operationName)) return onToApollo(req, res, next);
    // Checked before anything is awaited, so that a request that finds none is the one making it.
    const done = answers.startMaking(caller, key);
    let made: Awaited<ReturnType<WrittenAnswers['answer']>>;
    try {
      made = await written.answer(hash, operationName, caller, variables);
    } catch {
      // The read failed (the database): the executor tries once more, and answers a failure as GraphQL does.
      done();
      return onToApollo(req, res, next);
    }
    if (typeof made === 'string') {
      done();
      if (made === 'token not live') req.caller = undefined;
      return onToApollo(req, res, next);
    }
    const answer = keptJson(made.json);
    done(answer);
    return sendKeptAnswer(req, res, answers, caller, key, answer, contentType);
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
