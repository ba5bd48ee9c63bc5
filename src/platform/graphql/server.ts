import { ApolloServer } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { Redis } from 'ioredis';

import type { AnswerCache } from '../answer-cache';
import type { Config } from '../config';
import { AppError, asAppError, toGraphQLExtensions } from '../errors';
import type { Logger } from '../logger';
import type { GraphQLContext } from './context';
import { inputGuards } from './input-guards';
import { executorGateway, type GraphQLExecution } from './jit-executor';
import { keptAnswersPlugin } from './kept-answers';
import { userErrorsAsErrors } from './payloads';
import { PersistedQueryCache, type RegisteredOperations } from './persisted-queries';
import { readOnlyTokens } from './read-only';
import type { WrittenAnswers } from './written-answers';

/** Limits on what one GraphQL document may ask for. */
export const GRAPHQL_LIMITS = {
  maxDepth: 10,
  maxCost: 20000,
  maxAliases: 15,
  maxTokens: 2000,
  maxDirectives: 20,
} as const;

/**
 * What Apollo keeps of parsed and validated documents, by its estimate of their size (their JSON's length, about
 * a third of the heap they hold with their tokens). Its default, 30 MB, let documents whose arguments are written
 * into the text pile up: 4.6 MB of heap after the bench's two minutes of mixed use, 1.6 MB with this. The
 * dashboard's 115 operations come to 0.27 MB.
 */
const DOCUMENT_STORE_BYTES = 512 * 1024;

/** The limits of GraphQL (graphql-armor), for HTTP and for subscriptions over WebSocket alike. */
export function graphqlProtection() {
  return new ApolloArmor({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
    // The token limit is graphql-js's own parse option: armor's failed as a 500.
    maxTokens: { enabled: false },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
    blockFieldSuggestion: { enabled: true },
  }).protect();
}

export async function createGraphQLServer(
  schema: GraphQLSchema,
  config: Pick<Config, 'nodeEnv'>,
  logger: Logger,
  execution: GraphQLExecution = 'jit',
  kept?: { answers: AnswerCache; queries: ReadonlySet<string> },
  written?: WrittenAnswers,
  persisted: PersistedQuerySetup = { registered: new Map(), only: false, shared: null },
): Promise<ApolloServer<GraphQLContext>> {
  const protection = graphqlProtection();
  const server = new ApolloServer<GraphQLContext>({
    // Apollo parses and validates; the gateway hook executes (compiled documents, see jit-executor.ts).
    gateway: executorGateway(schema, execution, written),
    ...protection,
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    documentStore: new InMemoryLRUCache({ maxSize: DOCUMENT_STORE_BYTES }),
    // Automatic persisted queries (a client sends an operation's SHA-256 alone once it has sent its text): the
    // build's registered operations, then the clients' (see persisted-queries.ts), which the cache keeps as long
    // as it sees fit (a day in Redis; in the process, until pushed out).
    persistedQueries: {
      cache: new PersistedQueryCache(persisted.registered, persisted.only, persisted.shared, logger),
      ttl: null,
    },
    introspection: config.nodeEnv !== 'production',
    // Nothing reads cache hints; the plugin wrapped every field's resolver to compute them.
    plugins: [
      ...(protection.plugins ?? []),
      ApolloServerPluginCacheControlDisabled(),
      // Browsers get GraphiQL from local files (graphiql-page.ts); Apollo's page loads from a CDN.
      ApolloServerPluginLandingPageDisabled(),
      inputGuards,
      readOnlyTokens,
      userErrorsAsErrors,
      ...(kept ? [keptAnswersPlugin(kept.answers, kept.queries)] : []),
    ],
    // The process's own shutdown (src/main.ts) stops Apollo; its signal handlers would race that.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => formatError(formatted, error, logger),
  });
  await server.start();
  return server;
}

/** The operations the build registered, whether only they may run, and the Redis that shares the clients' ones. */
export interface PersistedQuerySetup {
  registered: RegisteredOperations;
  only: boolean;
  shared: { redis: Redis; prefix: string } | null;
}

/** Maps every resolver error through the one taxonomy; unexpected errors are logged and masked. */
export function formatError(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  // Errors raised by GraphQL itself (parse, validation, variable coercion) carry no original error.
  if (original === error && !(original instanceof AppError)) {
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') return formatted;
    // Apollo's refusals of a malformed request that carry no code (an automatic persisted query's hash that is
    // not its text's, an unknown version of the protocol) but a 4xx status: shown as they are, as BAD_REQUEST.
    const status = original instanceof GraphQLError ? (original.extensions.http as { status?: unknown })?.status : 0;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return { message: formatted.message, extensions: { code: 'BAD_REQUEST' } };
  }
  const appError = asAppError(original);
  if (appError.code === 'INTERNAL_SERVER_ERROR') logger.error({ err: original }, 'unexpected GraphQL error');
  return {
    message: appError.message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: toGraphQLExtensions(appError),
  };
}
