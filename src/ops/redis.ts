import type { Redis } from 'ioredis';

/**
 * A Redis connection for request-path work (rate limits, readiness): commands fail fast instead of queueing
 * while Redis is away, so a Redis outage never stalls requests.
 */
export function createRedis(url: string): Redis {
  const { Redis } = require('ioredis') as typeof import('ioredis');
  return new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
}
