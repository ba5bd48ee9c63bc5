import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';

import { startDeliveryWorker, startReminderWorker } from '../../workers/queue-workers';
import { TwoFactorRepository } from '../auth/two-factor.repository';
import { type Database, openDatabase, type QueryListener } from '../db/orm';
import type { ClaimedFetch } from '../logos/logo.repository';
import { NotificationTargetRepository } from '../notifications/notification-target.repository';
import { type Config, ConfigError } from '../platform/config';
import { DataSource } from '../platform/db/data-source';
import { databaseServer, logReclaimedOrphan, type ReclaimedOrphan } from '../platform/db/embedded-postgres';
import { fromUtcTimestamp } from '../platform/db/timestamps';
import type { GraphQLExecution } from '../platform/graphql/jit-executor';
import { createLogger, type Logger } from '../platform/logger';
import type { LimiterStores } from '../platform/ops/limiters';
import { createRedis, whenReady } from '../platform/ops/redis';
import { DueWorkRelay } from '../platform/relay';
import type { DueReminder } from '../reminders/reminder.service';
import {
  createReminderQueue,
  inProcessReminderHandoff,
  REMINDER_LOOK_AHEAD_MS,
  reminderQueueHandoff,
} from '../reminders/reminder-queue';
import type { ClaimedDelivery, DeliveryService, DeliveryTiming } from '../webhooks/delivery.service';
import { createDeliveryQueue, inProcessHandoff, outboxRelay, queueHandoff } from '../webhooks/delivery-queue';
import { createServices, type Services } from './services';

/**
 * What a process is for: `api` serves HTTP and (unless told otherwise) runs the background work; `worker` is
 * `npm run worker`, queue consumers only; `cli` runs one administration command.
 */
export type Role = 'api' | 'worker' | 'cli';

export interface RuntimeOptions {
  logger?: Logger;
  /** Sees every SQL statement (tests count statements per request). */
  onQuery?: QueryListener;
  /** Delivery timeout and claim lease (tests shorten them). */
  deliveryTiming?: DeliveryTiming;
  /** api with Redis: whether this process also runs the queue workers (default true, as `npm start` does). */
  inProcessWorker?: boolean;
  /**
   * api: whether this process runs the background work: the relays, the reminder sweep and, with Redis, the
   * in-process workers (default true). Of several API processes (WEB_CONCURRENCY) exactly one does.
   */
  background?: boolean;
  /** Called after every commit that wrote outbox events (another API process passes it to the one relaying). */
  onOutboxCommit?: () => void;
  /** "Now" for records and reminders (tests move it instead of sleeping). */
  clock?: () => Date;
  /** api under the supervisor: the orphaned server its start of the embedded database shut down, if any. */
  reclaimedOrphan?: ReclaimedOrphan | null;
  /** api: how GraphQL documents are executed (default jit; the tests compare it with graphql-js). */
  graphqlExecution?: GraphQLExecution;
}

export interface Runtime {
  config: Config;
  logger: Logger;
  db: Database;
  /** The shared Redis of rate limits and throttles (api with REDIS_URL), else null. */
  redis: Redis | null;
  stores: LimiterStores;
  services: Services;
  deliveries: DeliveryService;
  /** The server a killed Subledger had left running on DATA_DIR, shut down by this start (for /readyz). */
  reclaimedOrphan: ReclaimedOrphan | null;
  /** The queue consumers this process runs (worker, and api with Redis and background work). */
  workers: Array<Worker<ClaimedDelivery[]> | Worker<DueReminder>>;
  close(): Promise<void>;
}

export interface ApiRuntime extends Runtime {
  relay: DueWorkRelay<ClaimedDelivery>;
  reminderRelay: DueWorkRelay<DueReminder>;
  /** Fetches catalogue products' logos, once each (not started while LOGO_FETCH is off). */
  logoRelay: DueWorkRelay<ClaimedFetch>;
  /** Runs a relay round at once (a commit in another process wrote due work). */
  nudgeRelays(): void;
}

/** How often the relay looks for due deliveries when nothing nudged it. */
const RELAY_POLL_MS = 250;
/**
 * Deliveries claimed in one batch (taken, posted together and recorded in one statement each), and in flight at
 * most: a burst's statements and queue jobs come per 250 deliveries (with 100, PostgreSQL spent a fifth more
 * a delivery), while the POSTs share each origin's few connections.
 */
const RELAY_MAX_IN_FLIGHT = 250;
/** Reminders fire within about this long of their time on the embedded default. */
const REMINDER_POLL_MS = 1_000;
const SWEEP_INTERVAL_MS = 300_000;
/** How often products whose logo is to be fetched are looked for: a new record's shows within about this long. */
const LOGO_POLL_MS = 60_000;
/** Logo fetches under way at once, at most. */
const LOGO_FETCHES_IN_FLIGHT = 4;
const HOUR_MS = 3_600_000;
const RATES_INTERVAL_MS = { off: null, daily: 24 * HOUR_MS, hourly: HOUR_MS } as const;
/** How long start-up waits for Redis before counting in memory (a Redis outage must not stop the service). */
const REDIS_READY_WAIT_MS = 5_000;

/** The one composition of a Subledger process: database, Redis, services and background work by role. */
export async function createRuntime(config: Config, role: 'api', options?: RuntimeOptions): Promise<ApiRuntime>;
export async function createRuntime(config: Config, role: 'worker' | 'cli', options?: RuntimeOptions): Promise<Runtime>;
export async function createRuntime(
  config: Config,
  role: Role,
  options: RuntimeOptions = {},
): Promise<Runtime | ApiRuntime> {
  if (role === 'worker' && (!config.redisUrl || !config.databaseUrl)) {
    throw new ConfigError([
      'npm run worker needs REDIS_URL and DATABASE_URL; with the embedded database, npm start delivers in-process',
    ]);
  }
  const logger =
    options.logger ?? createLogger(role === 'cli' ? { logLevel: 'warn', logFormat: config.logFormat } : config);
  // The CLI uses the server of a Subledger running on DATA_DIR, or starts one for the command.
  const database = await databaseServer(config, { attach: role === 'cli' });
  const reclaimedOrphan = database.embedded?.reclaimedOrphan ?? options.reclaimedOrphan ?? null;
  if (database.embedded?.reclaimedOrphan) logReclaimedOrphan(logger, database.embedded.reclaimedOrphan, config.dataDir);
  const db = await openDatabase(database.url, config, logger, {
    onQuery: options.onQuery,
    embedded: database.embedded,
  });
  const sealed = role === 'cli' || config.notifySecretKey ? null : await sealedWithoutKey(new DataSource(db.orm));
  if (sealed) {
    await db.close();
    throw new ConfigError([`NOTIFY_SECRET_KEY must be set: ${sealed}`]);
  }
  const redis: Redis | null = role === 'api' && config.redisUrl ? createRedis(config.redisUrl) : null;
  redis?.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  if (redis) await whenReady(redis, REDIS_READY_WAIT_MS);
  const stores: LimiterStores = { redis, redisPrefix: config.redisPrefix, reads: db.reads };
  const clock = options.clock ?? (() => new Date());
  const services = createServices(db.orm, config, stores, logger, clock, options.deliveryTiming);
  if (options.onOutboxCommit) services.outbox.subscribe(options.onOutboxCommit);
  const { deliveries } = services;

  const background = role === 'api' && options.background !== false;
  const queueRedis = config.redisUrl ? { url: config.redisUrl, prefix: config.redisPrefix } : null;
  const runsWorkers = queueRedis && (role === 'worker' || (background && options.inProcessWorker !== false));
  const workers = runsWorkers
    ? [startDeliveryWorker(deliveries, queueRedis, logger), startReminderWorker(services.reminders, queueRedis, logger)]
    : [];
  const closeBase = async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    redis?.disconnect();
    await db.close();
  };
  const base: Runtime = {
    config,
    logger,
    db,
    redis,
    stores,
    services,
    deliveries,
    workers,
    reclaimedOrphan,
    close: closeBase,
  };
  if (role !== 'api') return base;

  // Outbound deliveries: the relay moves due rows of the outbox; with Redis through BullMQ to workers (here
  // and in `npm run worker`), without it straight to the delivery function here.
  const queue = queueRedis ? createDeliveryQueue(queueRedis.url, queueRedis.prefix) : null;
  queue?.on('error', (error) => logger.warn({ err: error }, 'delivery queue error'));
  const relayOptions = { pollIntervalMs: RELAY_POLL_MS, maxInFlight: RELAY_MAX_IN_FLIGHT };
  const relay = outboxRelay(
    deliveries,
    queue ? queueHandoff(queue) : inProcessHandoff(deliveries),
    logger,
    relayOptions,
  );
  services.outbox.subscribe(() => relay.nudge());

  // Reminders: due rows fire here (embedded default), or go to BullMQ as delayed jobs a minute ahead (Redis).
  const reminderQueue = queueRedis ? createReminderQueue(queueRedis.url, queueRedis.prefix) : null;
  reminderQueue?.on('error', (error) => logger.warn({ err: error }, 'reminder queue error'));
  const reminderRelay = new DueWorkRelay(
    (limit) => services.reminders.claimDue(limit, reminderQueue ? REMINDER_LOOK_AHEAD_MS : 0),
    reminderQueue ? reminderQueueHandoff(reminderQueue, clock) : inProcessReminderHandoff(services.reminders),
    logger,
    { ...relayOptions, pollIntervalMs: REMINDER_POLL_MS },
  );
  services.outbox.subscribe(() => reminderRelay.nudge());

  const logoRelay = new DueWorkRelay(
    (limit) => services.logos.claimFetches(limit),
    async (claims) => {
      await Promise.all(claims.map((claim) => services.logos.fetchProductLogo(claim)));
    },
    logger,
    { pollIntervalMs: LOGO_POLL_MS, maxInFlight: LOGO_FETCHES_IN_FLIGHT },
  );

  // Roll next payment dates and reminders forward now (payments that passed while stopped) and every few minutes.
  const sweep = () => sweepOnce(services).catch((error: unknown) => logger.warn({ err: error }, 'sweep failed'));
  let sweeping: Promise<unknown> = Promise.resolve();
  let sweepTimer: NodeJS.Timeout | undefined;
  // Exchange rates from RATES_URL: at start when the last success is older than half the interval (a restart
  // does not fetch again), then every interval.
  const ratesInterval = RATES_INTERVAL_MS[config.ratesRefresh];
  let refreshingRates: Promise<unknown> = Promise.resolve();
  let ratesTimer: NodeJS.Timeout | undefined;
  const refreshRates = () => (refreshingRates = services.rates.refresh());
  if (background) {
    relay.start();
    reminderRelay.start();
    if (config.logoFetch) {
      logoRelay.start();
      logoRelay.nudge();
    }
    sweeping = sweep();
    sweepTimer = setInterval(sweep, SWEEP_INTERVAL_MS).unref();
    if (ratesInterval !== null) {
      refreshingRates = services.rates
        .status()
        .then(({ succeeded_at: succeeded }) =>
          succeeded === null || clock().getTime() - fromUtcTimestamp(succeeded).getTime() > ratesInterval / 2
            ? refreshRates()
            : null,
        )
        .catch((error: unknown) => logger.warn({ err: error }, 'exchange-rate refresh failed'));
      ratesTimer = setInterval(refreshRates, ratesInterval).unref();
    }
  }
  return {
    ...base,
    relay,
    reminderRelay,
    logoRelay,
    // Not the logo relay: a commit wrote no logo work, and its claim reads every product in use; it polls.
    nudgeRelays() {
      relay.nudge();
      reminderRelay.nudge();
    },
    async close() {
      clearInterval(sweepTimer);
      clearInterval(ratesTimer);
      await Promise.all([sweeping, refreshingRates]);
      await Promise.all([relay.stop(), reminderRelay.stop(), logoRelay.stop()]);
      // Nothing adds jobs once the relays have stopped; then the workers, Redis and the database close as in every role.
      await Promise.all([queue?.close(), reminderQueue?.close()]);
      await closeBase();
    },
  };
}

/**
 * The upkeep the API process runs at start and every few minutes, step by step; each step works through at most
 * a batch and answers how many records, users or budgets it brought up to date (0: nothing was behind). Expiry
 * first, so records that just expired lose their reminders in the same pass; prices whose day came before the
 * ledger's entries, which the rolled dates (and the reminders rolled with them) extend; budget warnings last,
 * over the records as they now stand.
 */
export const SWEEP_STEPS: ReadonlyArray<(services: Services) => Promise<number>> = [
  (services) => services.subscriptions.expireDue(),
  (services) => services.subscriptions.applyDuePrices(),
  (services) => services.subscriptions.rollNextPaymentDates(),
  (services) => services.ledger.sweep(),
  (services) => services.budgetWarnings.sweep(),
];

/** One pass of the upkeep: how much it brought up to date. */
export async function sweepOnce(services: Services): Promise<number> {
  let done = 0;
  for (const step of SWEEP_STEPS) done += await step(services);
  return done;
}

/**
 * Why NOTIFY_SECRET_KEY is needed when it is unset: notification targets' URLs or two-factor secrets (whose
 * users could not sign in without it) are sealed with it. Null: nothing sealed.
 */
async function sealedWithoutKey(data: DataSource): Promise<string | null> {
  if (await new NotificationTargetRepository(data).any())
    return 'notification targets exist, and their URLs are sealed with it';
  if (await new TwoFactorRepository(data).anyEnabled())
    return 'accounts have two-factor authentication on, and their secrets are sealed with it';
  return null;
}
