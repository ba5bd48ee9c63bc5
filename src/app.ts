import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressMiddleware } from '@as-integrations/express5';
import cors from 'cors';
import express, { type Express } from 'express';
import type { Redis } from 'ioredis';
import { pinoHttp } from 'pino-http';
import { answerClientError, errorHandler, unknownRoute } from '../rest-facade/http-errors';
import { BODY_LIMIT_BYTES } from '../rest-facade/body';
import { createRestFacade } from '../rest-facade';
import { bearerToken, matchesHash, sha256Hex } from './auth/secrets';
import { AppError } from './errors';
import { identifyCaller } from '../rest-facade/auth';
import { rateLimit } from '../rest-facade/rate-limit';
import type { Config } from './config';
import { databaseServer } from './db/embedded-postgres';
import { openDatabase, type Database, type QueryListener } from './db/orm';
import type { GraphQLContext } from './graphql/context';
import { createLoaders } from './graphql/loaders';
import { buildAppSchema } from './graphql/schema';
import { createGraphQLServer } from './graphql/server';
import { createLogger, redactPath, type Logger } from './logger';
import { requestLimiter, type LimiterStores } from './ops/limiters';
import { Metrics } from './ops/metrics';
import { createRedis, whenReady } from './ops/redis';
import { staticImages } from './ops/static-images';
import { createServices, type Services } from './services';
import { startDeliveryWorker, startReminderWorker } from '../workers/queue-workers';
import { createDeliveryQueue, queueHandoff } from './webhooks/delivery-queue';
import { DeliveryService, type DeliveryTiming } from './webhooks/delivery.service';
import { DueWorkRelay, inProcessHandoff, outboxRelay } from './webhooks/outbox-relay';
import { createReminderQueue, inProcessReminderHandoff, REMINDER_LOOK_AHEAD_MS, reminderQueueHandoff } from './alerts/reminder-queue';
import type { DueReminder } from './alerts/reminder.service';
import type { ClaimedDelivery } from './webhooks/delivery.service';

export interface AppOptions {
  logger?: Logger;
  /** Sees every SQL statement (tests count statements per request). */
  onQuery?: QueryListener;
  /** Delivery timeout and claim lease (tests shorten them). */
  deliveryTiming?: DeliveryTiming;
  /** With Redis, whether this process also runs a delivery worker (default true, as `npm start` does). */
  inProcessWorker?: boolean;
  /**
   * Whether this process runs the background work: the relays, the reminder sweep and, with Redis, the
   * in-process workers (default true). Of several API processes (WEB_CONCURRENCY) exactly one does.
   */
  background?: boolean;
  /** Called after every commit that wrote outbox events (another API process passes it to the one relaying). */
  onOutboxCommit?: () => void;
  /** "Now" for records and reminders (tests move it instead of sleeping). */
  clock?: () => Date;
}

/** How often the relay looks for due deliveries when nothing nudged it. */
const RELAY_POLL_MS = 250;
const RELAY_MAX_IN_FLIGHT = 32;
/** Reminders fire within about this long of their time on the embedded default. */
const REMINDER_POLL_MS = 1_000;
const SWEEP_INTERVAL_MS = 300_000;
/** How long start-up waits for Redis before counting in memory (a Redis outage must not stop the service). */
const REDIS_READY_WAIT_MS = 5_000;

export interface RunningApp {
  express: Express;
  db: Database;
  services: Services;
  deliveries: DeliveryService;
  relay: DueWorkRelay<ClaimedDelivery>;
  reminderRelay: DueWorkRelay<DueReminder>;
  logger: Logger;
  /** Runs a relay round at once (a commit in another process wrote due work). */
  nudgeRelays(): void;
  /** Starts serving HTTP; resolves to the port actually bound (PORT 0 picks a free one). */
  listen(port: number): Promise<number>;
  close(): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Builds the whole service: database, services, GraphQL on /graphql, the REST facade, operations endpoints. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<RunningApp> {
  const logger = options.logger ?? createLogger(config);
  const database = await databaseServer(config);
  const db = await openDatabase(database.url, config, logger, { onQuery: options.onQuery, embedded: database.embedded });
  const redis: Redis | null = config.redisUrl ? createRedis(config.redisUrl) : null;
  redis?.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  if (redis) await whenReady(redis, REDIS_READY_WAIT_MS);
  const stores: LimiterStores = { redis, redisPrefix: config.redisPrefix, reads: db.reads };
  const clock = options.clock ?? (() => new Date());
  const services = createServices(db.orm, config, stores, logger, clock);
  const background = options.background !== false;
  if (options.onOutboxCommit) services.outbox.subscribe(options.onOutboxCommit);
  const apollo = await createGraphQLServer(await buildAppSchema(services), config, logger);
  const metrics = new Metrics(db.orm);

  // Outbound deliveries: the relay moves due rows of the outbox; with Redis through BullMQ to workers (one
  // runs in this process, more with `npm run worker`), without it straight to the delivery function here.
  const deliveries = new DeliveryService(db.orm, config, options.deliveryTiming);
  const queue = config.redisUrl ? createDeliveryQueue(config.redisUrl, config.redisPrefix) : null;
  queue?.on('error', (error) => logger.warn({ err: error }, 'delivery queue error'));
  const workerRedis = config.redisUrl && background && options.inProcessWorker !== false ? { url: config.redisUrl, prefix: config.redisPrefix } : null;
  const worker = workerRedis ? startDeliveryWorker(deliveries, workerRedis, logger) : null;
  const relay = outboxRelay(deliveries, queue ? queueHandoff(queue) : inProcessHandoff(deliveries), logger, {
    pollIntervalMs: RELAY_POLL_MS,
    maxInFlight: RELAY_MAX_IN_FLIGHT,
  });
  services.outbox.subscribe(() => relay.nudge());

  // Reminders: due rows fire here (embedded default), or go to BullMQ as delayed jobs a minute ahead (Redis).
  const reminderQueue = config.redisUrl ? createReminderQueue(config.redisUrl, config.redisPrefix) : null;
  reminderQueue?.on('error', (error) => logger.warn({ err: error }, 'reminder queue error'));
  const reminderWorker = workerRedis ? startReminderWorker(services.reminders, workerRedis, logger) : null;
  const reminderRelay = new DueWorkRelay(
    (limit) => services.reminders.claimDue(limit, reminderQueue ? REMINDER_LOOK_AHEAD_MS : 0),
    reminderQueue ? reminderQueueHandoff(reminderQueue, clock) : inProcessReminderHandoff(services.reminders),
    logger,
    { pollIntervalMs: REMINDER_POLL_MS, maxInFlight: RELAY_MAX_IN_FLIGHT },
  );
  services.outbox.subscribe(() => reminderRelay.nudge());
  // Roll reminders forward now (payments that passed while stopped) and every few minutes.
  // Expiry first, so records that just expired lose their reminders in the same run.
  const sweep = () =>
    services.subscriptions
      .expireDue()
      .then(() => services.reminders.sweep())
      .catch((error: unknown) => logger.warn({ err: error }, 'sweep failed'));
  let sweeping: Promise<unknown> = Promise.resolve();
  let sweepTimer: NodeJS.Timeout | undefined;
  if (background) {
    relay.start();
    reminderRelay.start();
    sweeping = sweep();
    sweepTimer = setInterval(sweep, SWEEP_INTERVAL_MS).unref();
  }

  const app = express();
  app.disable('x-powered-by');
  // An ETag is a SHA-1 of every answer's whole body (a tenth of a list's CPU) and the original service sends none.
  app.disable('etag');
  app.use(
    pinoHttp({
      logger,
      serializers: {
        req: (req: { url: string }) => Object.assign(req, { url: redactPath(req.url) }),
      },
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
    }),
  );
  app.use(metrics.middleware());

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await Promise.all([
      db.orm.em
        .getConnection()
        .execute('select 1')
        .then(
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
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', database, queue });
  });
  app.get('/metrics', async (req, res) => {
    if (config.metricsToken !== null && !matchesHash(bearerToken(req.headers.authorization) ?? '', sha256Hex(config.metricsToken))) {
      throw AppError.unauthenticated('/metrics needs METRICS_TOKEN as a Bearer token');
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  app.use('/static', staticImages);
  // Browser clients on other origins (the extension's pages, dashboards): tokens travel in headers, never
  // cookies, so any origin may call unless CORS_ORIGINS narrows it.
  app.use(
    ['/api/v1', '/webhook', '/graphql'],
    cors({
      origin: config.corsOrigins ?? '*',
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After'],
      maxAge: 600,
    }),
  );

  const limiter =
    config.rateLimitPerMinute > 0
      ? requestLimiter(stores, { keyPrefix: 'requests', points: config.rateLimitPerMinute, durationSeconds: 60 }, { processes: config.webConcurrency })
      : null;
  app.use(
    '/graphql',
    // The same per-token (per-address before login) request limit as /api/v1: a GraphQL request may cost an
    // argon2 hash (one signUp or login at most), and an unlimited endpoint made guessing free.
    identifyCaller(services.auth),
    ...(limiter ? [rateLimit(limiter, config.rateLimitPerMinute)] : []),
    express.json({ limit: BODY_LIMIT_BYTES }),
    expressMiddleware(apollo, {
      context: async ({ req }): Promise<GraphQLContext> => ({
        caller: req.caller ?? null,
        address: req.ip ?? 'unknown',
        loaders: createLoaders(db.orm),
      }),
    }),
  );

  app.use(createRestFacade({ services, config, requestLimiter: limiter }));
  app.use(unknownRoute);
  app.use(errorHandler);

  let server: Server | null = null;
  return {
    express: app,
    db,
    services,
    deliveries,
    relay,
    reminderRelay,
    logger,
    nudgeRelays() {
      relay.nudge();
      reminderRelay.nudge();
    },
    listen(port) {
      return new Promise((resolve, reject) => {
        server = app.listen(port, () => resolve((server!.address() as AddressInfo).port));
        server.once('error', reject);
        server.on('clientError', answerClientError);
      });
    },
    async close() {
      if (server) {
        const closing = server;
        const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
        // Idle keep-alive connections would hold close() open; in-flight requests were answered by now.
        closing.closeIdleConnections();
        await closed;
      }
      clearInterval(sweepTimer);
      await sweeping;
      await Promise.all([relay.stop(), reminderRelay.stop()]);
      await Promise.all([worker?.close(), reminderWorker?.close()]);
      await Promise.all([queue?.close(), reminderQueue?.close()]);
      await apollo.stop();
      redis?.disconnect();
      await db.close();
    },
  };
}
