import type { RateLimiterAbstract } from 'rate-limiter-flexible';

import { claimEach, type LimiterStores, sharedLimiter } from '../platform/ops/limiters';

/** Reset requests allowed per hour for one e-mail address, whether or not an account has it. */
export const RESET_REQUESTS_PER_EMAIL = 5;
/** Reset requests allowed per hour from one client address, whatever e-mail addresses it names. */
export const RESET_REQUESTS_PER_ADDRESS = 20;

/**
 * Throttles password-reset requests per e-mail (no mailbox flooded with links) and per address (no sweep of
 * addresses), on the shared store the login throttle uses. Every request counts, with or without an account,
 * so a refusal tells nothing either.
 */
export class ResetRequestThrottle {
  private readonly byEmail: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;

  constructor(stores: LimiterStores) {
    this.byEmail = sharedLimiter(stores, {
      keyPrefix: 'reset-email',
      points: RESET_REQUESTS_PER_EMAIL,
      durationSeconds: 3600,
    });
    this.byAddress = sharedLimiter(stores, {
      keyPrefix: 'reset-ip',
      points: RESET_REQUESTS_PER_ADDRESS,
      durationSeconds: 3600,
    });
  }

  /** Counts a request for the (normalised) e-mail from the address; RATE_LIMITED once either is used up. */
  async claim(email: string, address: string): Promise<void> {
    await claimEach(
      [
        [this.byEmail, email],
        [this.byAddress, address],
      ],
      'Too many password reset requests, try again later',
    );
  }
}
