import { intArray, rowsOf, run, type StatementTarget } from '../platform/db/statements';
import { SUBSCRIPTION_TOPICS, type SubscriptionTopic } from './topics';

export interface DeliveryRow {
  id: number;
  event_id: string;
  topic: string;
  endpoint_id: number;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface AttemptRow {
  delivery_id: number;
  attempt_number: number;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: string;
}

/** An attempt taken: what to send, and its number. */
export interface TakenAttempt {
  event_id: string;
  endpoint_id: number;
  attempt_count: number;
  topic: string;
  payload: unknown;
  url: string;
  secret: string;
}

const NOW = `(now() at time zone 'utc')`;

const DELIVERY_SELECT = `
select d."id", d."event_id", e."topic", d."endpoint_id", d."status", d."attempt_count", d."next_attempt_at", d."created_at", d."completed_at"
  from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id"`;

/** The one door to webhook_events, webhook_deliveries and webhook_delivery_attempts. */
export const deliveryRepository = {
  /** An event and one delivery per enabled endpoint of the owner that takes its topic (an empty list: every subscription topic). */
  async insertEvent(
    em: StatementTarget,
    event: { id: string; userId: number; topic: SubscriptionTopic; subscriptionId: number; payload: string },
  ): Promise<void> {
    await run(em, `insert into "webhook_events" ("id", "user_id", "topic", "subscription_id", "payload") values (?, ?, ?, ?, ?)`, [
      event.id,
      event.userId,
      event.topic,
      event.subscriptionId,
      event.payload,
    ]);
    await run(
      em,
      `insert into "webhook_deliveries" ("event_id", "endpoint_id", "next_attempt_at")
       select ?, e."id", ${NOW} from "webhook_endpoints" e
        where e."user_id" = ? and e."enabled"
          and (? = any(e."events") or (cardinality(e."events") = 0 and ? = any(?::text[])))`,
      [event.id, event.userId, event.topic, event.topic, `{${SUBSCRIPTION_TOPICS.join(',')}}`],
    );
  },

  /** Leases up to `limit` due pending deliveries for `leaseSeconds` (rows another relay holds are skipped). */
  claimDue(em: StatementTarget, leaseSeconds: number, limit: number): Promise<Array<{ id: number; attempt_count: number }>> {
    return rowsOf(
      em,
      `update "webhook_deliveries" set "next_attempt_at" = ${NOW} + make_interval(secs => ?)
        where "id" in (
          select "id" from "webhook_deliveries"
           where "status" = 'PENDING' and "next_attempt_at" <= ${NOW}
           order by "next_attempt_at" limit ? for update skip locked)
        returning "id", "attempt_count"`,
      [leaseSeconds, limit],
    );
  },

  /** Takes attempt `attemptsMade + 1` of a pending delivery and reads what to send; null when another took it. */
  async takeAttempt(em: StatementTarget, deliveryId: number, attemptsMade: number): Promise<TakenAttempt | null> {
    const [taken] = await rowsOf<TakenAttempt>(
      em,
      `with "taken" as (
         update "webhook_deliveries" set "attempt_count" = "attempt_count" + 1, "updated_at" = ${NOW}
          where "id" = ? and "status" = 'PENDING' and "attempt_count" = ?
          returning "event_id", "endpoint_id", "attempt_count")
       select t."event_id", t."endpoint_id", t."attempt_count", e."topic", e."payload", p."url", p."secret"
         from "taken" t join "webhook_events" e on e."id" = t."event_id" join "webhook_endpoints" p on p."id" = t."endpoint_id"`,
      [deliveryId, attemptsMade],
    );
    return taken ?? null;
  },

  /** The attempt's row and the delivery's new state, in one statement so they commit together. */
  async recordAttempt(
    em: StatementTarget,
    attempt: Omit<AttemptRow, 'created_at'>,
    next: { status: 'SUCCEEDED' | 'FAILED' | 'PENDING'; retryInMs: number | null },
  ): Promise<void> {
    await run(
      em,
      `with "attempt" as (
         insert into "webhook_delivery_attempts" ("delivery_id", "attempt_number", "status_code", "duration_ms", "response_excerpt", "error")
         values (?, ?, ?, ?, ?, ?))
       update "webhook_deliveries"
          set "status" = ?, "updated_at" = ${NOW},
              "next_attempt_at" = case when ? then ${NOW} + make_interval(secs => ?) else null end,
              "completed_at" = case when ? then null else ${NOW} end
        where "id" = ?`,
      [
        attempt.delivery_id,
        attempt.attempt_number,
        attempt.status_code,
        attempt.duration_ms,
        attempt.response_excerpt,
        attempt.error,
        next.status,
        next.retryInMs !== null,
        (next.retryInMs ?? 0) / 1000,
        next.status === 'PENDING',
        attempt.delivery_id,
      ],
    );
  },

  /** The user's deliveries, newest first, optionally of one endpoint or in one status. */
  list(em: StatementTarget, userId: number, query: { offset: number; limit: number; endpointId?: number; status?: string }): Promise<DeliveryRow[]> {
    return rowsOf<DeliveryRow>(
      em,
      `${DELIVERY_SELECT}
        where e."user_id" = ? and (? :: int is null or d."endpoint_id" = ?) and (? :: text is null or d."status" = ?)
        order by d."id" desc limit ? offset ?`,
      [userId, query.endpointId ?? null, query.endpointId ?? null, query.status ?? null, query.status ?? null, query.limit, query.offset],
    );
  },

  async owned(em: StatementTarget, userId: number, deliveryId: number): Promise<DeliveryRow | null> {
    const [row] = await rowsOf<DeliveryRow>(em, `${DELIVERY_SELECT} where d."id" = ? and e."user_id" = ?`, [deliveryId, userId]);
    return row ?? null;
  },

  attempts(em: StatementTarget, deliveryIds: readonly number[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return rowsOf<AttemptRow>(
      em,
      `select "delivery_id", "attempt_number", "status_code", "duration_ms", "response_excerpt", "error", "created_at"
         from "webhook_delivery_attempts" where "delivery_id" = any(?::int[]) order by "id"`,
      [intArray(deliveryIds)],
    );
  },

  /** A finished delivery becomes pending now, with at most `attemptCount` attempts counted; false when it is still pending. */
  async reopen(em: StatementTarget, deliveryId: number, attemptCount: number): Promise<boolean> {
    const rows = await rowsOf(
      em,
      `update "webhook_deliveries" set "status" = 'PENDING', "completed_at" = null, "next_attempt_at" = ${NOW},
              "attempt_count" = least("attempt_count", ?)
        where "id" = ? and "status" <> 'PENDING' returning "id"`,
      [attemptCount, deliveryId],
    );
    return rows.length > 0;
  },

  /** Deliveries per status (PENDING is the queue depth). */
  async countsByStatus(em: StatementTarget): Promise<Record<string, number>> {
    const rows = await rowsOf<{ status: string; count: string }>(em, 'select "status", count(*) as "count" from "webhook_deliveries" group by "status"', []);
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  },
};
