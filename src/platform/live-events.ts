import type { Redis } from 'ioredis';
import { Client } from 'pg';

import type { Logger } from './logger';

/** The channel the database announces changes on (see the live_notifications migration). */
export const LIVE_CHANNEL = 'subledger_live';

/**
 * A change the database announced after its commit: ids only. Whoever hands it to a caller reads what the
 * caller may see of it from the database, as that caller.
 */
export type LiveEvent =
  | {
      kind: 'event';
      /** The outbox event's id. */
      eventId: string;
      /** The user whose change it is (a record's owner). */
      userId: number;
      topic: string;
      subscriptionId: number | null;
    }
  | { kind: 'delivery'; deliveryId: number; userId: number; status: string };

/** The one bus of live events of a process: every change of the installation, from whichever process made it. */
export interface LiveBus {
  /** Hears every event until the returned function is called. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

/** A notification's payload as the triggers write it; null when it is not one (the channel is ours, but still). */
export function parseLiveEvent(text: string): LiveEvent | null {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof raw.u !== 'number') return null;
  if (raw.k === 'e' && typeof raw.id === 'string' && typeof raw.t === 'string')
    return {
      kind: 'event',
      eventId: raw.id,
      userId: raw.u,
      topic: raw.t,
      subscriptionId: typeof raw.s === 'number' ? raw.s : null,
    };
  if (raw.k === 'd' && typeof raw.id === 'number' && typeof raw.st === 'string')
    return { kind: 'delivery', deliveryId: raw.id, userId: raw.u, status: raw.st };
  return null;
}

/** Listeners, told of each event in turn; one that throws does not keep the event from the others. */
class Listeners {
  private readonly listeners = new Set<(event: LiveEvent) => void>();

  constructor(private readonly logger: Logger) {}

  add(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: LiveEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn({ err: error }, 'live event listener failed');
      }
    }
  }
}

const RECONNECT_MS = 1_000;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other work), made again a second after
 * it is lost; what was announced meanwhile is not heard (clients reload what they show when they reconnect).
 */
export class PgNotifications {
  private client: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly onPayload: (payload: string) => void,
    private readonly logger: Logger,
  ) {}

  /** Resolves once listening (or once the first attempt failed: it is retried). */
  async start(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: 'subledger-live' });
    this.client = client;
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => undefined);
      if (this.closed) return;
      if (error) this.logger.warn({ err: error }, 'live notifications connection lost; reconnecting');
      this.timer = setTimeout(() => void this.start(), RECONNECT_MS);
      this.timer.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === LIVE_CHANNEL && message.payload) this.onPayload(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen "${LIVE_CHANNEL}"`);
    } catch (error) {
      lost(error as Error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/** The bus without Redis: every process LISTENs to the database itself. */
export class PgLiveBus implements LiveBus {
  private readonly listeners: Listeners;
  private readonly notifications: PgNotifications;

  constructor(url: string, logger: Logger) {
    this.listeners = new Listeners(logger);
    this.notifications = new PgNotifications(
      url,
      (payload) => {
        const event = parseLiveEvent(payload);
        if (event) this.listeners.emit(event);
      },
      logger,
    );
  }

  start(): Promise<void> {
    return this.notifications.start();
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  close(): Promise<void> {
    return this.notifications.close();
  }
}

/** How many payloads a Redis bus remembers having passed on, to drop the copies other bridges publish. */
const SEEN_LIMIT = 10_000;

/**
 * The bus with Redis: processes subscribe to a Redis channel (`<prefix>:live`) on a connection of their own;
 * the process that runs the background work (one per `npm start`) also bridges the database's notifications
 * to it. Several bridges (several instances) publish the same payload: each payload is unique (an event id, a
 * delivery's id, status and transaction), so receivers pass each on once.
 */
export class RedisLiveBus implements LiveBus {
  private readonly listeners: Listeners;
  private readonly subscriber: Redis;
  private readonly bridge: PgNotifications | null;
  private readonly seen = new Set<string>();
  readonly channel: string;

  constructor(
    options: { redisUrl: string; prefix: string; publisher: Redis; databaseUrl: string | null },
    private readonly logger: Logger,
  ) {
    this.listeners = new Listeners(logger);
    this.channel = `${options.prefix}:live`;
    const { Redis } = require('ioredis') as typeof import('ioredis');
    // A connection in subscriber mode takes no other commands; ioredis subscribes again after reconnecting.
    this.subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    this.subscriber.on('error', (error) => logger.warn({ err: error }, 'live events redis connection error'));
    this.subscriber.on('message', (channel: string, payload: string) => {
      if (channel === this.channel) this.receive(payload);
    });
    this.bridge = options.databaseUrl
      ? new PgNotifications(
          options.databaseUrl,
          (payload) =>
            void options.publisher
              .publish(this.channel, payload)
              .catch((error: unknown) => logger.warn({ err: error }, 'live event not published to redis')),
          logger,
        )
      : null;
  }

  async start(): Promise<void> {
    await this.subscriber.connect().catch((error: unknown) => {
      this.logger.warn({ err: error }, 'live events redis connection failed; retrying');
    });
    await this.subscriber.subscribe(this.channel).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'live events redis subscription failed');
    });
    await this.bridge?.start();
  }

  private receive(payload: string): void {
    if (this.seen.has(payload)) return;
    this.seen.add(payload);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value!);
    const event = parseLiveEvent(payload);
    if (event) this.listeners.emit(event);
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  async close(): Promise<void> {
    await this.bridge?.close();
    this.subscriber.disconnect();
  }
}

/**
 * The bus config chooses: Redis pub/sub when REDIS_URL is set (`publisher` the process's Redis connection),
 * else LISTEN/NOTIFY on the database; `bridge` whether this process relays the database's notifications to
 * Redis (the process running the background work).
 */
export async function openLiveBus(
  options: { databaseUrl: string; redis: { url: string; prefix: string; publisher: Redis } | null; bridge: boolean },
  logger: Logger,
): Promise<LiveBus> {
  const bus = options.redis
    ? new RedisLiveBus(
        {
          redisUrl: options.redis.url,
          prefix: options.redis.prefix,
          publisher: options.redis.publisher,
          databaseUrl: options.bridge ? options.databaseUrl : null,
        },
        logger,
      )
    : new PgLiveBus(options.databaseUrl, logger);
  await bus.start();
  return bus;
}
