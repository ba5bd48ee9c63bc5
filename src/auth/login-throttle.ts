import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors';
import { retryAfterSeconds, sharedLimiter, type LimiterStores } from '../ops/limiters';

/** Failed logins allowed per minute for one e-mail before the next attempt is refused with 429. */
export const LOGIN_FAILURES_PER_EMAIL = 29;
/** Failed logins allowed per minute from one address, whatever e-mails it tries. */
export const LOGIN_FAILURES_PER_ADDRESS = 100;
/** Failures after which every further failed answer is delayed, growing to at most 100 ms. */
const SLOWDOWN_AFTER = 5;
const SLOWDOWN_STEP_MS = 20;
const SLOWDOWN_MAX_MS = 100;

/** Throttles password guessing per e-mail and per address; successful logins clear the e-mail's count. */
export class LoginThrottle {
  private readonly byEmail: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;

  constructor(stores: LimiterStores) {
    this.byEmail = sharedLimiter(stores, { keyPrefix: 'login-email', points: LOGIN_FAILURES_PER_EMAIL, durationSeconds: 60 });
    this.byAddress = sharedLimiter(stores, { keyPrefix: 'login-ip', points: LOGIN_FAILURES_PER_ADDRESS, durationSeconds: 60 });
  }

  /** Throws RATE_LIMITED when either key has used its failures. */
  async assertAllowed(email: string, address: string): Promise<void> {
    const [emailState, addressState] = await Promise.all([
      this.byEmail.get(email.toLowerCase()),
      this.byAddress.get(address),
    ]);
    const exhausted = [
      { state: emailState, limit: LOGIN_FAILURES_PER_EMAIL },
      { state: addressState, limit: LOGIN_FAILURES_PER_ADDRESS },
    ].filter(({ state, limit }) => state !== null && state.consumedPoints >= limit);
    if (exhausted.length > 0) {
      const wait = Math.max(...exhausted.map(({ state }) => retryAfterSeconds(state!)));
      throw new AppError('RATE_LIMITED', 'Too many failed login attempts, try again later', undefined, wait);
    }
  }

  /** Counts a failure and slows the answer once failures pile up. */
  async recordFailure(email: string, address: string): Promise<void> {
    const results = await Promise.all([
      this.byEmail.penalty(email.toLowerCase(), 1),
      this.byAddress.penalty(address, 1),
    ]);
    const failures = Math.max(...results.map((r) => r.consumedPoints));
    if (failures > SLOWDOWN_AFTER) {
      const delay = Math.min(SLOWDOWN_MAX_MS, (failures - SLOWDOWN_AFTER) * SLOWDOWN_STEP_MS);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  async recordSuccess(email: string): Promise<void> {
    await this.byEmail.delete(email.toLowerCase());
  }
}
