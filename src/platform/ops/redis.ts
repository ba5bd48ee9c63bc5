import type { Redis } from 'ioredis';

/**
 * A Redis connection for request-path work (rate limits, readiness): commands fail fast instead of queueing
 * while Redis is away, so a Redis outage never stalls requests.
 */
export function createRedis(url: string): Redis {
  const { Redis } = require('ioredis') as typeof import('ioredis');
  return new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
}

/**
 * Resolves once the connection is ready, or after `timeoutMs` (Redis down at start: request-path work
 * counts in memory until it is back). Without the wait, the first requests of a process were counted only
 * in memory, because commands fail at once while the connection is still being made.
 */
export function whenReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
  });
}
