import type { ConnectionOptions, Queue } from 'bullmq';

/** BullMQ connections block on Redis commands, so they must retry without limit (ioredis option). */
export function queueConnection(redisUrl: string): ConnectionOptions {
  return { url: redisUrl, maxRetriesPerRequest: null } as ConnectionOptions;
}

export function createQueue<T>(name: string, redisUrl: string, prefix: string): Queue<T> {
  // bullmq and ioredis (11 MB per process) load only where Redis is configured.
  const { Queue } = require('bullmq') as typeof import('bullmq');
  return new Queue<T>(name, { connection: queueConnection(redisUrl), prefix });
}
