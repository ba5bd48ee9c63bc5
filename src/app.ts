import 'reflect-metadata';

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { expressMiddleware } from '@as-integrations/express5';
import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import { graphqlUploadExpress } from 'graphql-upload-minimal';
import { pinoHttp } from 'pino-http';

import { createRestFacade } from '../rest-facade';
import { identifyCaller } from '../rest-facade/auth';
import { BODY_LIMIT_BYTES } from '../rest-facade/body';
import { answerClientError, errorHandler, unknownRoute } from '../rest-facade/http-errors';
import { apiDocsPages } from '../rest-facade/openapi/pages';
import { rateLimit } from '../rest-facade/rate-limit';
import { bearerToken, matchesHash, sha256Hex } from './auth/secrets';
import { LiveServer } from './live/live.server';
import { logoImages } from './logos/logo.route';
import { type Config, ConfigError } from './platform/config';
import { epochDay, todayIn } from './platform/dates';
import { AppError } from './platform/errors';
import type { GraphQLContext } from './platform/graphql/context';
import { graphiqlPage } from './platform/graphql/graphiql-page';
import { keptQueryAnswers } from './platform/graphql/kept-answers';
import { loadRegisteredOperations, persistedOnly } from './platform/graphql/persisted-queries';
import { createGraphQLServer } from './platform/graphql/server';
import { WrittenAnswers } from './platform/graphql/written-answers';
import { redactRequest, requestLoggersOnDemand } from './platform/logger';
import { requestLimiter } from './platform/ops/limiters';
import { Metrics } from './platform/ops/metrics';
import { staticImages } from './platform/ops/static-images';
import { compressAnswers } from './platform/web/compression';
import { dashboardPage } from './platform/web/dashboard';
import { securityHeaders } from './platform/web/security-headers';
import { toIsoMicros } from './platform/wire-formats';
import { type ApiRuntime, createRuntime, type RuntimeOptions } from './runtime/runtime';
import { buildAppSchema } from './runtime/schema';
import { writtenRecordPage } from './subscriptions/subscription.page-answer';
import { VERSIONED_QUERIES } from './subscriptions/subscription.resolver';

export type AppOptions = RuntimeOptions;

export interface RunningApp extends ApiRuntime {
  express: Express;
  /** Starts serving HTTP; resolves to the port actually bound (PORT 0 picks a free one). */
  listen(port: number): Promise<number>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** A request's id, answered as X-Request-Id: the client's when it is well-formed, else a new one. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The largest file an import takes. */
const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * File uploads come with a Bearer token: Apollo refuses multipart bodies without a preflight header, to stop
 * cross-site form posts riding on cookies; here callers are known only by their Authorization header, which
 * such a form cannot send, so requiring it does the same.
 */
const uploadsNeedCaller: RequestHandler = (req, _res, next) => {
  if (req.is('multipart/form-data') && !req.caller)
    return next(AppError.unauthenticated('A file upload needs your Bearer token'));
  next();
};

/** A multipart request whose operations are parsed is handed on as the JSON request it now is. */
const multipartAsParsed: RequestHandler = (req, _res, next) => {
  if (req.is('multipart/form-data')) req.headers['content-type'] = 'application/json';
  next();
};

/** The HTTP side of an API process over its runtime: GraphQL on /graphql, the REST facade, operations endpoints. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<RunningApp> {
  // Before anything starts: GRAPHQL_PERSISTED_ONLY without the dashboard's build refuses to start.
  const registered = loadRegisteredOperations(config.graphqlPersistedOnly);
  const runtime = await createRuntime(config, 'api', options);
  const { db, redis, stores, services, logger } = runtime;
  const schema = await buildAppSchema(services);
  const written = new WrittenAnswers(schema, { subscriptions: writtenRecordPage(services.subscriptions) });
  const apollo = await createGraphQLServer(
    schema,
    config,
    logger,
    options.graphqlExecution,
    { answers: services.answers, queries: VERSIONED_QUERIES },
    written,
    {
      registered,
      only: config.graphqlPersistedOnly,
      shared: redis ? { redis, prefix: config.redisPrefix } : null,
    },
  );
  // Subscriptions over WebSocket on /graphql; the process running the background work feeds Redis's bus.
  const live = await LiveServer.open(runtime, schema, options.background !== false);
  const metrics = new Metrics(
    () => services.deliveryLog.countsByStatus(),
    async () => {
      const status = await services.rates.status();
      return {
        ageDays: status.as_of === null ? null : epochDay(todayIn('UTC')) - epochDay(status.as_of),
        failing: status.error !== null,
      };
    },
  );

  const app = express();
  app.disable('x-powered-by');
  // An ETag is a SHA-1 of every answer's whole body (a tenth of a list's CPU) and the original service sends none.
  app.disable('etag');
  // Request logs are made at info. Below that level pino-http would still serialize every request's headers
  // into a child logger that nothing writes (~6% of a create's CPU): then each request gets only its id, and
  // its logger (wanted only for an error) is made when first asked for.
  if (logger.isLevelEnabled('info')) {
    app.use(pinoHttp({ logger, serializers: { req: redactRequest }, genReqId: requestId }));
  } else {
    requestLoggersOnDemand(app.request, logger);
    app.use((req, res, next) => {
      req.id = requestId(req, res);
      next();
    });
  }
  app.use(metrics.middleware());
  app.use(securityHeaders());
  app.use(compressAnswers());

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await Promise.all([
      db.ping().then(
        () => 'ok',
        () => 'unreachable',
      ),
      redis
        ? redis.ping().then(
            () => 'ok',
            () => 'unreachable',
          )
        : Promise.resolve('in-process'),
    ]);
    const [database, queue] = checks;
    const ready = database === 'ok' && queue !== 'unreachable';
    // Details only: stale rates do not make the service unready.
    const rates = database === 'ok' ? await services.rates.status().catch(() => null) : null;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : 'unavailable',
      database,
      queue,
      // This start shut down the embedded server a killed Subledger had left running: worth the operator's look.
      ...(runtime.reclaimedOrphan ? { reclaimedOrphanedDatabase: { pid: runtime.reclaimedOrphan.pid } } : {}),
      ...(rates
        ? {
            rates: {
              asOf: rates.as_of,
              lastRefreshAt: toIsoMicros(rates.attempted_at),
              lastSuccessAt: toIsoMicros(rates.succeeded_at),
              error: rates.error,
            },
          }
        : {}),
    });
  });
  app.get('/metrics', async (req, res) => {
    if (
      config.metricsToken !== null &&
      !matchesHash(bearerToken(req.headers.authorization) ?? '', sha256Hex(config.metricsToken))
    ) {
      throw AppError.unauthenticated('/metrics needs METRICS_TOKEN as a Bearer token');
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  app.use('/static', staticImages);
  app.use(...logoImages(services.logos));
  // Browser clients on other origins (the extension's pages, dashboards): tokens travel in headers, never
  // cookies, so any origin may call unless CORS_ORIGINS narrows it.
  app.use(
    ['/api/v1', '/webhook', '/graphql', '/export', '/calendar'],
    cors({
      origin: config.corsOrigins ?? '*',
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      exposedHeaders: [
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'Retry-After',
        'Content-Disposition',
        'ETag',
        'Last-Modified',
      ],
      maxAge: 600,
    }),
  );

  const limiter =
    config.rateLimitPerMinute > 0
      ? requestLimiter(
          stores,
          { keyPrefix: 'requests', points: config.rateLimitPerMinute, durationSeconds: 60 },
          { processes: config.webConcurrency },
        )
      : null;
  // GraphiQL for a browser's GET /graphql, which API clients' requests pass on to Apollo (after CORS, which
  // answers preflights).
  app.use('/graphql', graphiqlPage());
  app.use(
    '/graphql',
    // The same per-token (per-address before login) request limit as /api/v1: a GraphQL request may cost an
    // argon2 hash (one signUp or login at most), and an unlimited endpoint made guessing free.
    // The token is checked by keptQueryAnswers: in a written answer's own statement, or before anything else.
    identifyCaller(services.auth, () => true),
    ...(limiter ? [rateLimit(limiter, config.rateLimitPerMinute)] : []),
    express.json({ limit: BODY_LIMIT_BYTES }),
    keptQueryAnswers(services.answers, written),
    // File uploads (graphql-multipart-request-spec): one file per request, streamed to its resolver.
    uploadsNeedCaller,
    graphqlUploadExpress({ maxFileSize: UPLOAD_LIMIT_BYTES, maxFiles: 1 }),
    multipartAsParsed,
    ...(config.graphqlPersistedOnly ? [persistedOnly(registered)] : []),
    expressMiddleware(apollo, {
      context: async ({ req }): Promise<GraphQLContext> => ({
        caller: req.caller ?? null,
        address: req.ip ?? 'unknown',
        userAgent: req.get('user-agent'),
      }),
    }),
  );

  app.use(createRestFacade({ services, config, requestLimiter: limiter }));
  // After CORS, which answers preflights: these routers would answer OPTIONS on their paths themselves. Last,
  // since every request they do not answer passes through each of them.
  app.use(apiDocsPages(config));
  app.use(dashboardPage());
  app.use(unknownRoute);
  app.use(errorHandler);

  let server: Server | null = null;
  return {
    ...runtime,
    express: app,
    listen(port) {
      return new Promise((resolve, reject) => {
        // Express calls back with the error when the port cannot be bound.
        server = app.listen(port, (error?: NodeJS.ErrnoException) => {
          if (!error) resolve((server!.address() as AddressInfo).port);
          else if (error.code === 'EADDRINUSE')
            reject(new ConfigError([`PORT ${port} is in use by another process: stop it, or set PORT to a free port`]));
          else reject(error);
        });
        server.on('clientError', answerClientError);
        live.attach(server);
      });
    },
    async close() {
      // Open WebSockets would hold the server's close open.
      await live.close();
      if (server) {
        const closing = server;
        const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
        // Idle keep-alive connections would hold close() open; in-flight requests were answered by now.
        closing.closeIdleConnections();
        await closed;
      }
      await apollo.stop();
      await runtime.close();
    },
  };
}
