import sql, { raw } from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { intArray } from '../platform/db/statements';
import { NOW } from './delivery.sql';

export interface DeliveryRow {
  id: number;
  event_id: string;
  topic: string;
  /** The webhook endpoint, or (a reminder's delivery) the notification target. */
  endpoint_id: number | null;
  target_id: number | null;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface AttemptRow {
  id: number;
  delivery_id: number;
  attempt_number: number;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: string;
}

/** An attempt made, and what becomes of its delivery: done, failed for good, or pending again after a while. */
export interface RecordedAttempt extends Omit<AttemptRow, 'id' | 'created_at'> {
  status: 'SUCCEEDED' | 'FAILED' | 'PENDING';
  retry_in_ms: number | null;
}

/** An attempt taken: what to send where, and its number. */
export type TakenAttempt = {
  delivery_id: number;
  event_id: string;
  attempt_count: number;
  topic: string;
} & (
  | {
      endpoint_id: number;
      target_id: null;
      /** The event's JSON text, posted as it is. */ payload: string;
      url: string;
      secret: string;
    }
  | { endpoint_id: null; target_id: number; message: unknown; sealed_url: string; sealed_secret: string | null }
);

/** A page of the delivery log and its filters. */
export interface DeliveryQuery {
  offset: number;
  limit: number;
  endpointId?: number;
  targetId?: number;
  status?: string;
}

const DELIVERY_SELECT = raw(`
select d."id", d."event_id", e."topic", d."endpoint_id", d."target_id", d."status", d."attempt_count", d."next_attempt_at", d."created_at", d."completed_at"
  from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id"`);

const ATTEMPT_COLUMNS = raw(
  `a."id", a."delivery_id", a."attempt_number", a."status_code", a."duration_ms", a."response_excerpt", a."error", a."created_at"`,
);

/** The user's deliveries (`d`, with their events `e`) that a query's filters keep. */
function deliveriesOf(userId: number, query: Omit<DeliveryQuery, 'offset' | 'limit'>) {
  const endpointId = query.endpointId ?? null;
  const targetId = query.targetId ?? null;
  const status = query.status ?? null;
  return sql`e."user_id" = ${userId}
             and (${endpointId}::int is null or d."endpoint_id" = ${endpointId})
             and (${targetId}::int is null or d."target_id" = ${targetId})
             and (${status}::text is null or d."status" = ${status})`;
}

/**
 * The one door to webhook_events, webhook_deliveries and webhook_delivery_attempts. The relays' statements run
 * on the pool (`apart`): a relay nudged from inside a transaction's callback must not join that transaction.
 */
export class DeliveryRepository {
  private readonly now = raw(NOW);

  constructor(private readonly db: DataSource) {}

  /**
   * A test message's event (topic notification.test, to no webhook endpoint) and its delivery to the target,
   * leased to the caller, who makes the first attempt at once; answers the delivery's id.
   */
  async insertTest(userId: number, eventId: string, targetId: number, message: unknown): Promise<number> {
    const body = JSON.stringify(message);
    const row = await this.db.row<{ id: number }>(
      sql`with "event" as (
            insert into "webhook_events" ("id", "user_id", "topic", "payload")
            values (${eventId}, ${userId}, 'notification.test', ${body}::json) returning "id")
          insert into "webhook_deliveries" ("event_id", "target_id", "message", "next_attempt_at")
          select "id", ${targetId}, ${body}::jsonb, ${this.now} + interval '1 minute' from "event" returning "id"`,
    );
    return row!.id;
  }

  /** Leases up to `limit` due pending deliveries for `leaseSeconds` (rows another relay holds are skipped). */
  claimDue(leaseSeconds: number, limit: number): Promise<Array<{ id: number; attempt_count: number }>> {
    return this.db.apart.rows(
      sql`update "webhook_deliveries" set "next_attempt_at" = ${this.now} + make_interval(secs => ${leaseSeconds})
           where "id" in (
             select "id" from "webhook_deliveries"
              where "status" = 'PENDING' and "next_attempt_at" <= ${this.now}
              order by "next_attempt_at" limit ${limit} for update skip locked)
          returning "id", "attempt_count"`,
    );
  }

  /**
   * Takes attempt `attemptsMade + 1` of each of these pending deliveries and reads what to send, in one
   * statement; a delivery another relay or worker took meanwhile is left out.
   */
  takeAttempts(claims: ReadonlyArray<{ deliveryId: number; attemptsMade: number }>): Promise<TakenAttempt[]> {
    const ids = intArray(claims.map((claim) => claim.deliveryId));
    const made = intArray(claims.map((claim) => claim.attemptsMade));
    return this.db.apart.rows<TakenAttempt>(
      sql`with "claim" as (select * from unnest(${ids}::int[], ${made}::int[]) as c("id", "made")),
          "taken" as (
            update "webhook_deliveries" d set "attempt_count" = d."attempt_count" + 1, "updated_at" = ${this.now}
              from "claim" c
             where d."id" = c."id" and d."status" = 'PENDING' and d."attempt_count" = c."made"
             returning d."id", d."event_id", d."endpoint_id", d."target_id", d."message", d."attempt_count")
          select t."id" as "delivery_id", t."event_id", t."endpoint_id", t."target_id", t."attempt_count", e."topic",
                 case when t."endpoint_id" is not null then e."payload"::text end as "payload", p."url", p."secret",
                 t."message", n."sealed_url", n."sealed_secret"
            from "taken" t join "webhook_events" e on e."id" = t."event_id"
            left join "webhook_endpoints" p on p."id" = t."endpoint_id"
            left join "notification_targets" n on n."id" = t."target_id"`,
    );
  }

  /** The attempts' rows and their deliveries' new states, in one statement so they commit together. */
  async recordAttempts(attempts: ReadonlyArray<RecordedAttempt>): Promise<void> {
    await this.db.apart.run(
      sql`with "outcome" as (
            select * from jsonb_to_recordset(${JSON.stringify(attempts)}::jsonb)
              as o("delivery_id" int, "attempt_number" int, "status_code" int, "duration_ms" int,
                   "response_excerpt" text, "error" text, "status" text, "retry_in_ms" int)),
          "attempt" as (
            insert into "webhook_delivery_attempts"
              ("delivery_id", "attempt_number", "status_code", "duration_ms", "response_excerpt", "error")
            select "delivery_id", "attempt_number", "status_code", "duration_ms", "response_excerpt", "error" from "outcome")
          update "webhook_deliveries" d
             set "status" = o."status", "updated_at" = ${this.now},
                 "next_attempt_at" = case when o."retry_in_ms" is not null
                                          then ${this.now} + make_interval(secs => o."retry_in_ms" / 1000.0) end,
                 "completed_at" = case when o."status" = 'PENDING' then null else ${this.now} end
            from "outcome" o
           where d."id" = o."delivery_id"`,
    );
  }

  /** The user's deliveries, newest first, optionally of one endpoint or notification target, or in one status. */
  list(userId: number, query: DeliveryQuery): Promise<DeliveryRow[]> {
    return this.db.rows<DeliveryRow>(
      sql`${DELIVERY_SELECT}
           where ${deliveriesOf(userId, query)}
           order by d."id" desc limit ${query.limit} offset ${query.offset}`,
    );
  }

  /** How many deliveries `list` pages through (its filters, without the page). */
  async count(userId: number, query: Omit<DeliveryQuery, 'offset' | 'limit'>): Promise<number> {
    const row = await this.db.row<{ count: string }>(
      sql`select count(*) as "count"
            from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id"
           where ${deliveriesOf(userId, query)}`,
    );
    return Number(row!.count);
  }

  async owned(userId: number, deliveryId: number): Promise<DeliveryRow | null> {
    const row = await this.db.row<DeliveryRow>(
      sql`${DELIVERY_SELECT} where d."id" = ${deliveryId} and e."user_id" = ${userId}`,
    );
    return row ?? null;
  }

  attempts(deliveryIds: readonly number[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.db.rows<AttemptRow>(
      sql`select ${ATTEMPT_COLUMNS}
            from "webhook_delivery_attempts" a where a."delivery_id" = any(${intArray(deliveryIds)}::int[]) order by a."id"`,
    );
  }

  /** The body of one of the user's events; null when there is none such. */
  async eventPayload(userId: number, eventId: string): Promise<Record<string, unknown> | null> {
    const row = await this.db.row<{ payload: Record<string, unknown> }>(
      sql`select "payload" from "webhook_events" where "id" = ${eventId} and "user_id" = ${userId}`,
    );
    return row?.payload ?? null;
  }

  /** One attempt of a delivery of the user's events; null when there is none such. */
  async ownedAttempt(userId: number, attemptId: number): Promise<AttemptRow | null> {
    const row = await this.db.row<AttemptRow>(
      sql`select ${ATTEMPT_COLUMNS}
            from "webhook_delivery_attempts" a
            join "webhook_deliveries" d on d."id" = a."delivery_id" join "webhook_events" e on e."id" = d."event_id"
           where a."id" = ${attemptId} and e."user_id" = ${userId}`,
    );
    return row ?? null;
  }

  /** A finished delivery becomes pending now, with at most `attemptCount` attempts counted; false when it is still pending. */
  async reopen(deliveryId: number, attemptCount: number): Promise<boolean> {
    const changed = await this.db.run(
      sql`update "webhook_deliveries"
             set "status" = 'PENDING', "completed_at" = null, "next_attempt_at" = ${this.now},
                 "attempt_count" = least("attempt_count", ${attemptCount})
           where "id" = ${deliveryId} and "status" <> 'PENDING'`,
    );
    return changed > 0;
  }

  /** Deliveries per status (PENDING is the queue depth). */
  async countsByStatus(): Promise<Record<string, number>> {
    const rows = await this.db.apart.rows<{ status: string; count: string }>(
      sql`select "status", count(*) as "count" from "webhook_deliveries" group by "status"`,
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  }
}
