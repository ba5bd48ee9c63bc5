import { Redis } from 'ioredis';

/** Deletes the keys under a Redis key prefix that a test or the bench used, so that runs leave none behind. */
export async function dropRedisPrefix(url: string | null | undefined, prefix: string): Promise<void> {
  if (!url) return;
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
}
