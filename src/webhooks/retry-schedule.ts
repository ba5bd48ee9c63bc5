/**
 * When each attempt of a delivery is made, counted from the previous one (DESIGN: at once, 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h): eight attempts over about a day, then the delivery is failed.
 */
export const ATTEMPT_DELAYS_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

export const MAX_ATTEMPTS = ATTEMPT_DELAYS_MS.length;

/** Milliseconds to wait after attempt number `attemptsMade` failed, or null when none is left. */
export function delayBeforeNextAttempt(attemptsMade: number): number | null {
  return attemptsMade >= 1 && attemptsMade < MAX_ATTEMPTS ? ATTEMPT_DELAYS_MS[attemptsMade] : null;
}
