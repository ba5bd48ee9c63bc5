import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

import type { DirectReads } from '../db/direct-reads';
import { AppError } from '../errors';

export interface LimiterOptions {
  /** Namespace of the keys. */
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

/**
 * Where counters live: Redis when configured (shared by every instance); otherwise, for counters that must
 * survive a restart (login throttling), the database; otherwise this process's memory.
 */
export interface LimiterStores {
  redis: Redis | null;
  redisPrefix: string;
  /** Statements on the database's pool (the limiter's own are run unnamed). */
  reads: DirectReads;
}

export function sharedLimiter(stores: LimiterStores, options: LimiterOptions): RateLimiterAbstract {
  const base = { keyPrefix: options.keyPrefix, points: options.points, duration: options.durationSeconds };
  // While Redis is unreachable, counting goes on in memory rather than failing requests.
  const insuranceLimiter = new RateLimiterMemory(base);
  if (stores.redis) {
    return new RateLimiterRedis({
      ...base,
      keyPrefix: `${stores.redisPrefix}:${options.keyPrefix}`,
      storeClient: stores.redis,
      insuranceLimiter,
    });
  }
  return new RateLimiterPostgres({
    ...base,
    storeClient: {
      query: (statement: { name?: string; text: string; values?: unknown[] }) => stores.reads.query(statement),
    },
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: false,
    insuranceLimiter,
  });
}

/**
 * The per-request limiter: shared like the others when Redis is configured or several API processes serve the
 * port (WEB_CONCURRENCY), in this process's memory when it is the only one.
 */
export function requestLimiter(
  stores: LimiterStores,
  options: LimiterOptions,
  deployment: { processes: number },
): RateLimiterAbstract {
  if (stores.redis || deployment.processes > 1) return sharedLimiter(stores, options);
  return new RateLimiterMemory({
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
  });
}

/** Consumes a point; resolves to the limiter's answer whether or not the limit was passed. */
export async function consume(
  limiter: RateLimiterAbstract,
  key: string,
): Promise<{ allowed: boolean; result: RateLimiterRes }> {
  try {
    return { allowed: true, result: await limiter.consume(key) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, result: rejection };
    throw rejection;
  }
}

export function retryAfterSeconds(result: RateLimiterRes): number {
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
}

/**
 * Consumes a point of each key on its limiter, all at once (each counter goes up atomically in its store, so
 * concurrent attempts cannot all pass a check made before any of them counted). Throws RATE_LIMITED with the
 * longest wait when any is used up; else answers the highest count consumed.
 */
export async function claimEach(claims: Array<[RateLimiterAbstract, string]>, refusal: string): Promise<number> {
  const outcomes = await Promise.all(claims.map(([limiter, key]) => consume(limiter, key)));
  const refused = outcomes.filter((outcome) => !outcome.allowed);
  if (refused.length > 0) {
    const wait = Math.max(...refused.map((outcome) => retryAfterSeconds(outcome.result)));
    throw new AppError('RATE_LIMITED', refusal, undefined, wait);
  }
  return Math.max(...outcomes.map((outcome) => outcome.result.consumedPoints));
}
