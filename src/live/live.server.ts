import type { Server } from 'node:http';

import {
  createSourceEventStream,
  type DocumentNode,
  execute,
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Redis } from 'ioredis';
import { WebSocketServer } from 'ws';

import type { AuthService } from '../auth/auth.service';
import { bearerToken } from '../auth/secrets';
import type { Caller } from '../platform/caller';
import type { Config } from '../platform/config';
import { formatError, GRAPHQL_LIMITS, graphqlProtection } from '../platform/graphql/server';
import { type LiveBus, openLiveBus } from '../platform/live-events';
import type { Logger } from '../platform/logger';
import type { LiveContext } from './live.resolver';
import { type LiveCaller, LiveFeeds, type LiveSources } from './live.streams';

/** Where the WebSocket endpoint is: GraphQL's own path, upgraded. */
export const LIVE_PATH = '/graphql';
/** Subscriptions one connection may hold at once. */
const MAX_SUBSCRIPTIONS = 20;
/** The largest message a client may send (a subscription document and its variables). */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** How long closing waits for clients to answer the close before cutting them off. */
const CLOSE_WAIT_MS = 1_000;

/** What a client sends in connection_init: its access token, in any of the shapes clients use. */
export type ConnectionParams = Record<string, unknown> | undefined;

/** The access token of a connection's init payload: `authorization`/`Authorization` "Bearer …", or `token`. */
export function connectionToken(params: ConnectionParams): string | null {
  if (!params || typeof params !== 'object') return null;
  for (const key of ['authorization', 'Authorization']) {
    const value = params[key];
    if (typeof value === 'string') return bearerToken(value);
  }
  return typeof params.token === 'string' && params.token.length > 0 ? params.token : null;
}

/**
 * What of a process's runtime live updates use (the composition passes its Runtime): a feature names what it
 * needs rather than importing the composition.
 */
export interface LiveRuntime {
  config: Pick<Config, 'redisUrl' | 'redisPrefix'>;
  logger: Logger;
  /** The database, for the address LISTEN/NOTIFY connects to. */
  db: { orm: { config: { get(key: 'clientUrl'): string | undefined } } };
  /** The process's Redis connection (api with REDIS_URL), else null. */
  redis: Redis | null;
  services: {
    auth: Pick<AuthService, 'authenticate'>;
    subscriptions: LiveSources['records'];
    households: LiveSources['sharedRecords'];
    deliveryLog: LiveSources['deliveries'];
  };
}

interface ConnectionExtra extends Record<PropertyKey, unknown> {
  caller: Caller;
  token: string;
}

/**
 * An error as HTTP's GraphQL answers it: a refused document or variable (no path: no field ran) with the code
 * Apollo gives it, a resolver's through the one taxonomy (unexpected ones logged and masked).
 */
function formatLiveError(error: GraphQLError, logger: Logger): GraphQLFormattedError {
  // A variable's value its type refuses carries the scalar's error as its original: still the client's input.
  if (error.originalError && error.path) return formatError(error.toJSON(), error, logger);
  const formatted = error.toJSON();
  const code = error.message.startsWith('Syntax Error')
    ? 'GRAPHQL_PARSE_FAILED'
    : error.message.startsWith('Variable "$')
      ? 'BAD_USER_INPUT'
      : 'GRAPHQL_VALIDATION_FAILED';
  // No field suggestions, as over HTTP (graphql-armor's blockFieldSuggestion masks them in Apollo's answers only).
  const message = formatted.message.replace(/Did you mean ".+"\?/g, '[Suggestion hidden]').trim();
  return { ...formatted, message, extensions: { ...formatted.extensions, code: formatted.extensions?.code ?? code } };
}

/**
 * graphql-js's subscribe, but each event is executed with a context of its own (a shallow copy): resolvers
 * keep per-request caches (DataLoaders) keyed by the context, which must not outlive one event.
 */
async function subscribePerEvent(
  args: ExecutionArgs,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream;
  const source = (stream as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  const base = args.contextValue as object;
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      const event = await source.next();
      if (event.done) return { done: true, value: undefined };
      return { done: false, value: await execute({ ...args, rootValue: event.value, contextValue: { ...base } }) };
    },
    async return() {
      await source.return?.();
      return { done: true, value: undefined };
    },
  };
  return iterator;
}

/**
 * GraphQL subscriptions over WebSocket (graphql-transport-ws) on the API's own port and path. A connection
 * is its caller's: the access token in connection_init is checked as a Bearer token is, and a missing or
 * invalid one closes the socket with 4403. Only subscriptions are taken (queries and mutations go over HTTP,
 * through its rate limit), each validated with the same limits as over HTTP.
 */
export class LiveServer {
  private readonly feeds: LiveFeeds;
  private readonly validationRules;
  private sockets: WebSocketServer | null = null;

  private constructor(
    private readonly schema: GraphQLSchema,
    private readonly auth: Pick<AuthService, 'authenticate'>,
    private readonly bus: LiveBus,
    runtime: LiveRuntime,
    private readonly logger: Logger,
  ) {
    this.feeds = new LiveFeeds({
      bus,
      records: runtime.services.subscriptions,
      sharedRecords: runtime.services.households,
      deliveries: runtime.services.deliveryLog,
      logger,
    });
    // The limits of HTTP's GraphQL (src/platform/graphql/server.ts), as validation rules.
    const armor = graphqlProtection();
    this.validationRules = [...specifiedRules, ...(armor.validationRules ?? [])];
  }

  /**
   * The live updates of an API process: its bus (Redis pub/sub with REDIS_URL, else LISTEN/NOTIFY), which
   * `bridge` (the process running the background work) feeds from the database when it is Redis.
   */
  static async open(runtime: LiveRuntime, schema: GraphQLSchema, bridge: boolean): Promise<LiveServer> {
    const { config, logger } = runtime;
    const bus = await openLiveBus(
      {
        databaseUrl: runtime.db.orm.config.get('clientUrl')!,
        redis:
          config.redisUrl && runtime.redis
            ? { url: config.redisUrl, prefix: config.redisPrefix, publisher: runtime.redis }
            : null,
        bridge,
      },
      logger,
    );
    return new LiveServer(schema, runtime.services.auth, bus, runtime, logger);
  }

  /** Serves subscriptions on the HTTP server's upgrades of /graphql. */
  attach(server: Server): void {
    const sockets = new WebSocketServer({ server, path: LIVE_PATH, maxPayload: MAX_MESSAGE_BYTES });
    this.sockets = sockets;
    const { schema, auth, feeds, logger } = this;
    useServer<ConnectionParams, ConnectionExtra>(
      {
        schema,
        onConnect: async (ctx) => {
          const token = connectionToken(ctx.connectionParams);
          const caller = token ? await auth.authenticate(token) : null;
          // false: graphql-ws closes with 4403 Forbidden.
          if (!caller || !token) return false;
          ctx.extra.caller = caller;
          ctx.extra.token = token;
          return true;
        },
        onSubscribe: (ctx, _id, payload) => {
          if (Object.keys(ctx.subscriptions).length >= MAX_SUBSCRIPTIONS)
            return [new GraphQLError(`At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`)];
          let document: DocumentNode;
          try {
            document = parse(payload.query, { maxTokens: GRAPHQL_LIMITS.maxTokens });
          } catch (error) {
            return [error instanceof GraphQLError ? error : new GraphQLError('The document could not be parsed')];
          }
          const errors = validate(schema, document, this.validationRules);
          if (errors.length > 0) return errors;
          const operation = getOperationAST(document, payload.operationName);
          if (!operation) return [new GraphQLError('Unable to identify the operation')];
          if (operation.operation !== 'subscription')
            return [
              new GraphQLError('Only subscriptions are served over WebSocket; send queries and mutations over HTTP'),
            ];
          const { caller, token } = ctx.extra as ConnectionExtra;
          const socket = ctx.extra.socket;
          const who: LiveCaller = {
            caller,
            stillValid: async () => (await auth.authenticate(token)) !== null,
            revoked: () => socket.close(4403, 'Forbidden'),
          };
          const contextValue: LiveContext = {
            caller,
            address: ctx.extra.request.socket.remoteAddress ?? 'unknown',
            live: { feeds, who },
          };
          return {
            schema,
            document,
            operationName: payload.operationName,
            variableValues: payload.variables,
            contextValue,
          };
        },
        subscribe: subscribePerEvent,
        onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatLiveError(error, logger)),
        onNext: (_ctx, _id, _payload, _args, result) =>
          result.errors
            ? { ...result, errors: result.errors.map((error) => formatLiveError(error, logger)) }
            : undefined,
      },
      sockets,
    );
  }

  /** Closes every connection (1001 Going away), then the bus. */
  async close(): Promise<void> {
    const sockets = this.sockets;
    this.sockets = null;
    if (sockets) {
      for (const client of sockets.clients) client.close(1001, 'Going away');
      const deadline = Date.now() + CLOSE_WAIT_MS;
      while (sockets.clients.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    }
    await this.bus.close();
  }
}
