import type { Config } from '../platform/config';
import { USER_AGENT } from '../platform/version';
import type { DeliveryRepository, RecordedAttempt } from './delivery.repository';
import { type PostResult, sendOnce } from './http-post';
import { delayBeforeNextAttempt } from './retry-schedule';
import { signWebhook } from './signature';

/** A due delivery taken by one relay for a while (the lease), with the number of attempts made so far. */
export interface ClaimedDelivery {
  deliveryId: number;
  attemptsMade: number;
}

export interface AttemptOutcome {
  statusCode: number | null;
  succeeded: boolean;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Sends a notification target's message (the notifications feature's sender): the service's status code, or
 * null for an e-mail, and the start of its answer.
 */
export interface TargetSender {
  send(
    target: { sealed_url: string; sealed_secret: string | null },
    message: { id: string },
    timeoutMs: number,
  ): Promise<{ statusCode: number | null; excerpt: string }>;
}

/** Tests shorten these; the defaults are the service's. */
export interface DeliveryTiming {
  timeoutMs?: number;
  leaseMs?: number;
}
/** How long a claimed delivery is left alone before another relay may take it again (a dead worker's). */
const CLAIM_LEASE_MS = 60_000;

/**
 * The one delivery function of both queue modes: one attempt of one delivery, recorded in the database,
 * with the next attempt scheduled on the retry schedule.
 */
export class DeliveryService {
  private readonly timeoutMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly config: Pick<Config, 'serviceShortName' | 'baseUrl' | 'webhookAllowPrivate'>,
    private readonly notifications: TargetSender,
    timing: DeliveryTiming = {},
  ) {
    this.timeoutMs = timing.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.leaseMs = timing.leaseMs ?? CLAIM_LEASE_MS;
  }

  /** Takes up to `limit` due deliveries for this relay (rows another relay holds are skipped). */
  async claimDue(limit: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const rows = await this.deliveries.claimDue(this.leaseMs / 1000, limit);
    return rows.map((row) => ({ deliveryId: row.id, attemptsMade: row.attempt_count }));
  }

  /**
   * Makes attempt number `attemptsMade + 1` of each claimed delivery: the attempts are taken in one statement
   * first, so a repeated hand-off (a redelivered queue message, a second relay) finds them taken and does
   * nothing (never two POSTs for one attempt); the POSTs go out together, and their outcomes are recorded in
   * one statement.
   */
  async attempt(claims: readonly ClaimedDelivery[]): Promise<void> {
    if (claims.length === 0) return;
    const taken = await this.deliveries.takeAttempts(claims);
    if (taken.length === 0) return;
    const outcomes = await Promise.all(
      taken.map((attempt) =>
        this.timed(() =>
          attempt.target_id === null
            ? this.post(attempt.endpoint_id, attempt.event_id, attempt)
            : // The message's id is the delivery's: the same on every attempt, another for each target.
              this.notifications.send(
                attempt,
                { ...(attempt.message as object), id: `ntf_${attempt.delivery_id}` },
                this.timeoutMs,
              ),
        ),
      ),
    );
    await this.deliveries.recordAttempts(
      taken.map((attempt, index) => this.recorded(attempt.delivery_id, attempt.attempt_count, outcomes[index])),
    );
  }

  /** A send's outcome, how long it took, and its failure (a refused address, a timeout) as the attempt's error. */
  private async timed(
    send: () => Promise<{ statusCode: number | null; excerpt: string | null }>,
  ): Promise<AttemptOutcome> {
    const started = performance.now();
    try {
      const { statusCode, excerpt } = await send();
      // An e-mail has no status code: handed to the SMTP server is sent.
      const succeeded = statusCode === null || (statusCode >= 200 && statusCode < 300);
      return { statusCode, succeeded, durationMs: elapsed(started), responseExcerpt: excerpt, error: null };
    } catch (error) {
      // Duck-typed: errors from node internals are not instances of this realm's Error under test runners.
      const { name, message } = (error ?? {}) as { name?: string; message?: string };
      const reason =
        name === 'AbortError' || name === 'TimeoutError'
          ? `timed out after ${this.timeoutMs} ms`
          : (message ?? String(error));
      return {
        statusCode: null,
        succeeded: false,
        durationMs: elapsed(started),
        responseExcerpt: null,
        error: reason.slice(0, 500),
      };
    }
  }

  private post(
    endpointId: number,
    eventId: string,
    target: { topic: string; payload: string; url: string; secret: string },
  ): Promise<PostResult> {
    const body = target.payload;
    const timestamp = Math.floor(Date.now() / 1000);
    const prefix = `x-${this.config.serviceShortName}-webhook`;
    return sendOnce(
      target.url,
      {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        [`${prefix}-id`]: String(endpointId),
        [`${prefix}-event`]: target.topic,
        [`${prefix}-source`]: this.config.baseUrl,
        'webhook-id': eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(target.secret, eventId, timestamp, body),
      },
      body,
      { timeoutMs: this.timeoutMs, allowPrivate: this.config.webhookAllowPrivate },
    );
  }

  /** An outcome and what it makes of the delivery, on the retry schedule. */
  private recorded(deliveryId: number, attemptNumber: number, outcome: AttemptOutcome): RecordedAttempt {
    const { succeeded } = outcome;
    // 410 Gone: the receiver asks us to stop.
    const retryIn = succeeded || outcome.statusCode === 410 ? null : delayBeforeNextAttempt(attemptNumber);
    return {
      delivery_id: deliveryId,
      attempt_number: attemptNumber,
      status_code: outcome.statusCode,
      duration_ms: outcome.durationMs,
      response_excerpt: outcome.responseExcerpt,
      error: outcome.error,
      status: succeeded ? 'SUCCEEDED' : retryIn === null ? 'FAILED' : 'PENDING',
      retry_in_ms: retryIn,
    };
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
