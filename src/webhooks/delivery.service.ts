import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { delayBeforeNextAttempt } from './retry-schedule';
import { signWebhook } from './signature';

/** A due delivery taken by one relay for a while (the lease), with the number of attempts made so far. */
export interface ClaimedDelivery {
  deliveryId: number;
  attemptsMade: number;
}

export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

export const DELIVERY_TIMEOUT_MS = 10_000;
/** How long a claimed delivery is left alone before another relay may take it again (a dead worker's). */
const CLAIM_LEASE_MS = 60_000;
const EXCERPT_BYTES = 1024;
const NOW = `(now() at time zone 'utc')`;

/**
 * The one delivery function of both queue modes: one attempt of one delivery, recorded in the database,
 * with the next attempt scheduled on the retry schedule.
 */
export class DeliveryService {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly config: Pick<Config, 'serviceShortName' | 'baseUrl'>,
  ) {}

  /** Takes up to `limit` due deliveries for this relay (rows another relay holds are skipped). */
  async claimDue(limit: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const rows = await this.orm.em.getConnection().execute<{ id: number; attempt_count: number }[]>(
      `update "webhook_deliveries" set "next_attempt_at" = ${NOW} + make_interval(secs => ?)
        where "id" in (
          select "id" from "webhook_deliveries"
           where "status" = 'PENDING' and "next_attempt_at" <= ${NOW}
           order by "next_attempt_at" limit ? for update skip locked)
        returning "id", "attempt_count"`,
      [CLAIM_LEASE_MS / 1000, limit],
    );
    return rows.map((row) => ({ deliveryId: row.id, attemptsMade: row.attempt_count }));
  }

  /**
   * Makes attempt number `attemptsMade + 1`. The attempt is claimed first, so a repeated job (a redelivered
   * queue message, a second relay) finds it taken and does nothing: never two POSTs for one attempt.
   */
  async attempt(claim: ClaimedDelivery): Promise<void> {
    const connection = this.orm.em.getConnection();
    const [taken] = await connection.execute<{ event_id: string; endpoint_id: number; attempt_count: number }[]>(
      `update "webhook_deliveries" set "attempt_count" = "attempt_count" + 1, "updated_at" = ${NOW}
        where "id" = ? and "status" = 'PENDING' and "attempt_count" = ?
        returning "event_id", "endpoint_id", "attempt_count"`,
      [claim.deliveryId, claim.attemptsMade],
    );
    if (!taken) return;
    const [target] = await connection.execute<{ topic: string; payload: unknown; url: string; secret: string }[]>(
      `select e."topic", e."payload", p."url", p."secret"
         from "webhook_events" e join "webhook_endpoints" p on p."id" = ?
        where e."id" = ?`,
      [taken.endpoint_id, taken.event_id],
    );
    const outcome = await this.post(taken.endpoint_id, taken.event_id, target);
    await this.record(claim.deliveryId, taken.attempt_count, outcome);
  }

  private async post(
    endpointId: number,
    eventId: string,
    target: { topic: string; payload: unknown; url: string; secret: string },
  ): Promise<AttemptOutcome> {
    const body = JSON.stringify(target.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const prefix = `x-${this.config.serviceShortName}-webhook`;
    const started = performance.now();
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          [`${prefix}-id`]: String(endpointId),
          [`${prefix}-event`]: target.topic,
          [`${prefix}-source`]: this.config.baseUrl,
          'webhook-id': eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(target.secret, eventId, timestamp, body),
        },
        body,
      });
      const responseExcerpt = await readExcerpt(response);
      return { statusCode: response.status, durationMs: elapsed(started), responseExcerpt, error: null };
    } catch (error) {
      const reason = error instanceof Error ? (error.name === 'TimeoutError' ? 'timed out' : String(error.cause ?? error.message)) : String(error);
      return { statusCode: null, durationMs: elapsed(started), responseExcerpt: null, error: reason.slice(0, 500) };
    }
  }

  private async record(deliveryId: number, attemptNumber: number, outcome: AttemptOutcome): Promise<void> {
    const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    // 410 Gone: the receiver asks us to stop.
    const retryIn = succeeded || outcome.statusCode === 410 ? null : delayBeforeNextAttempt(attemptNumber);
    const status = succeeded ? 'SUCCEEDED' : retryIn === null ? 'FAILED' : 'PENDING';
    await this.orm.em.transactional(async (em) => {
      const connection = em.getConnection();
      const tx = em.getTransactionContext();
      await connection.execute(
        `insert into "webhook_delivery_attempts" ("delivery_id", "attempt_number", "status_code", "duration_ms", "response_excerpt", "error")
         values (?, ?, ?, ?, ?, ?)`,
        [deliveryId, attemptNumber, outcome.statusCode, outcome.durationMs, outcome.responseExcerpt, outcome.error],
        'run',
        tx,
      );
      await connection.execute(
        `update "webhook_deliveries"
            set "status" = ?, "updated_at" = ${NOW},
                "next_attempt_at" = case when ? then ${NOW} + make_interval(secs => ?) else null end,
                "completed_at" = case when ? then null else ${NOW} end
          where "id" = ?`,
        [status, retryIn !== null, (retryIn ?? 0) / 1000, status === 'PENDING', deliveryId],
        'run',
        tx,
      );
    });
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** The first 1 KB of an answer, without reading the rest of a large one. */
async function readExcerpt(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < EXCERPT_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
}
