import type { RequestHandler } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

import { AppError } from '../src/platform/errors';
import { consume, retryAfterSeconds } from '../src/platform/ops/limiters';

/** Limits requests per token (per address before login), with X-RateLimit headers on every answer. */
export function rateLimit(limiter: RateLimiterAbstract, perMinute: number): RequestHandler {
  return (req, res, next) => {
    const key = req.caller?.tokenId ? `token:${req.caller.tokenId}` : `ip:${req.ip}`;
    consume(limiter, key).then(({ allowed, result }) => {
      res.setHeader('X-RateLimit-Limit', String(perMinute));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
      if (allowed) return next();
      next(new AppError('RATE_LIMITED', 'Too many requests', undefined, retryAfterSeconds(result)));
    }, next);
  };
}
