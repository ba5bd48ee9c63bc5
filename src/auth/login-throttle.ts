import type { RateLimiterAbstract } from 'rate-limiter-flexible';

import { claimEach, type LimiterStores, sharedLimiter } from '../platform/ops/limiters';

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
    this.byEmail = sharedLimiter(stores, {
      keyPrefix: 'login-email',
      points: LOGIN_FAILURES_PER_EMAIL,
      durationSeconds: 60,
    });
    this.byAddress = sharedLimiter(stores, {
      keyPrefix: 'login-ip',
      points: LOGIN_FAILURES_PER_ADDRESS,
      durationSeconds: 60,
    });
  }

  /**
   * Claims one attempt for the e-mail (normalised by the caller) and the address before the password is
   * checked: the counters go up atomically in the shared store, so concurrent guesses cannot all pass a
   * check made before any of them counted. Throws RATE_LIMITED once either has used its failures.
   */
  async claimAttempt(email: string, address: string): Promise<number> {
    return claimEach(
      [
        [this.byEmail, email],
        [this.byAddress, address],
      ],
      'Too many failed login attempts, try again later',
    );
  }

  /** The claimed attempt failed: the answer is slowed once failures pile up. */
  async failed(failures: number): Promise<void> {
    if (failures > SLOWDOWN_AFTER) {
      const delay = Math.min(SLOWDOWN_MAX_MS, (failures - SLOWDOWN_AFTER) * SLOWDOWN_STEP_MS);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** The claimed attempt succeeded: it was no failure, and the e-mail's failures are forgiven. */
  async succeeded(email: string, address: string): Promise<void> {
    await Promise.all([this.byEmail.delete(email), this.byAddress.reward(address, 1)]);
  }
}
