import { intArray, rowsOf, run, type StatementPart, type StatementTarget, withParts } from '../platform/db/statements';
import { SUBSCRIPTION_TOPICS, type WebhookTopic } from './topics';

/** A reminder's event: whether webhook endpoints get it, and the notification targets sent `message` with it. */
export interface EventNotifications {
  toEndpoints: boolean;
  targetIds: readonly number[];
  message: unknown;
}

/** An event to write: its id, its record (none: a budget warning) and its body. */
export interface NewEvent {
  id: string;
  subscriptionId: number | null;
  payload: unknown;
}

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
  delivery_id: number;
  attempt_number: number;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: string;
}

/** An attempt made, and what becomes of its delivery: done, failed for good, or pending again after a while. */
export interface RecordedAttempt extends Omit<AttemptRow, 'created_at'> {
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

const NOW = `(now() at time zone 'utc')`;

const DELIVERY_SELECT = `
select d."id", d."event_id", e."topic", d."endpoint_id", d."target_id", d."status", d."attempt_count", d."next_attempt_at", d."created_at", d."completed_at"
  from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id"`;

/** The one door to webhook_events, webhook_deliveries and webhook_delivery_attempts. */
export const deliveryRepository = {
  /**
   * A change's events and, for each, one delivery per enabled endpoint of the owner that takes its topic (an
   * empty list: every subscription topic), in one statement.
   */
  async insertEvents(
    em: StatementTarget,
    userId: number,
    topic: WebhookTopic,
    events: readonly NewEvent[],
    notify?: EventNotifications,
  ): Promise<void> {
    const parts = [deliveryRepository.eventsPart(userId, topic, events, notify?.toEndpoints ?? true)];
    if (notify && notify.targetIds.length > 0)
      parts.push(deliveryRepository.targetDeliveriesPart(notify.targetIds, notify.message));
    const { sql, params } = withParts(parts, 'select 1');
    await run(em, sql, params);
  },

  /**
   * insertEvents as a part of a larger statement (`given_events`, `event`, `event_deliveries`); `toEndpoints`
   * false writes the events alone (a reminder whose alert does not use webhooks, for its targets' deliveries).
   */
  eventsPart(userId: number, topic: WebhookTopic, events: readonly NewEvent[], toEndpoints = true): StatementPart {
    return {
      sql: `"given_events" as (
         select x->>'id' as "id", (x->>'subscriptionId')::int as "subscription_id", x->'payload' as "payload" from json_array_elements(?::json) x),
       "event" as (
         insert into "webhook_events" ("id", "user_id", "topic", "subscription_id", "payload")
         select g."id", ?, ?, g."subscription_id", g."payload" from "given_events" g returning "id"),
       "event_deliveries" as (
         insert into "webhook_deliveries" ("event_id", "endpoint_id", "next_attempt_at")
         select ev."id", p."id", ${NOW} from "event" ev cross join "webhook_endpoints" p
          where p."user_id" = ? and p."enabled" and ?::boolean
            and (? = any(p."events") or (cardinality(p."events") = 0 and ? = any(?::text[])))
         returning "id")`,
      params: [
        JSON.stringify(events),
        userId,
        topic,
        userId,
        toEndpoints,
        topic,
        topic,
        `{${SUBSCRIPTION_TOPICS.join(',')}}`,
      ],
      due: 'exists (select from "event_deliveries")',
    };
  },

  /** One delivery of `message` to each of these notification targets per event of the statement's `event` part. */
  targetDeliveriesPart(targetIds: readonly number[], message: unknown): StatementPart {
    return {
      sql: `"target_deliveries" as (
         insert into "webhook_deliveries" ("event_id", "target_id", "message", "next_attempt_at")
         select ev."id", t."id", ?::jsonb, ${NOW} from "event" ev cross join unnest(?::int[]) as t("id") returning "id")`,
      params: [JSON.stringify(message), intArray(targetIds)],
      due: 'exists (select from "target_deliveries")',
    };
  },

  /**
   * A test message's event (topic notification.test, to no webhook endpoint) and its delivery to the target,
   * leased to the caller, who makes the first attempt at once; answers the delivery's id.
   */
  async insertTest(
    em: StatementTarget,
    userId: number,
    eventId: string,
    targetId: number,
    message: unknown,
  ): Promise<number> {
    const [row] = await rowsOf<{ id: number }>(
      em,
      `with "event" as (
         insert into "webhook_events" ("id", "user_id", "topic", "payload") values (?, ?, 'notification.test', ?::json) returning "id")
       insert into "webhook_deliveries" ("event_id", "target_id", "message", "next_attempt_at")
       select "id", ?, ?::jsonb, ${NOW} + interval '1 minute' from "event" returning "id"`,
      [eventId, userId, JSON.stringify(message), targetId, JSON.stringify(message)],
    );
    return row.id;
  },

  /** Leases up to `limit` due pending deliveries for `leaseSeconds` (rows another relay holds are skipped). */
  claimDue(
    em: StatementTarget,
    leaseSeconds: number,
    limit: number,
  ): Promise<Array<{ id: number; attempt_count: number }>> {
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

  /**
   * Takes attempt `attemptsMade + 1` of each of these pending deliveries and reads what to send, in one
   * statement; a delivery another relay or worker took meanwhile is left out.
   */
  takeAttempts(
    em: StatementTarget,
    claims: ReadonlyArray<{ deliveryId: number; attemptsMade: number }>,
  ): Promise<TakenAttempt[]> {
    return rowsOf<TakenAttempt>(
      em,
      `with "claim" as (select * from unnest(?::int[], ?::int[]) as c("id", "made")),
       "taken" as (
         update "webhook_deliveries" d set "attempt_count" = d."attempt_count" + 1, "updated_at" = ${NOW}
           from "claim" c
          where d."id" = c."id" and d."status" = 'PENDING' and d."attempt_count" = c."made"
          returning d."id", d."event_id", d."endpoint_id", d."target_id", d."message", d."attempt_count")
       select t."id" as "delivery_id", t."event_id", t."endpoint_id", t."target_id", t."attempt_count", e."topic",
              case when t."endpoint_id" is not null then e."payload"::text end as "payload", p."url", p."secret",
              t."message", n."sealed_url", n."sealed_secret"
         from "taken" t join "webhook_events" e on e."id" = t."event_id"
         left join "webhook_endpoints" p on p."id" = t."endpoint_id" left join "notification_targets" n on n."id" = t."target_id"`,
      [intArray(claims.map((claim) => claim.deliveryId)), intArray(claims.map((claim) => claim.attemptsMade))],
    );
  },

  /** The attempts' rows and their deliveries' new states, in one statement so they commit together. */
  async recordAttempts(em: StatementTarget, attempts: ReadonlyArray<RecordedAttempt>): Promise<void> {
    await run(
      em,
      `with "outcome" as (
         select * from jsonb_to_recordset(?::jsonb) as o("delivery_id" int, "attempt_number" int, "status_code" int, "duration_ms" int,
                  "response_excerpt" text, "error" text, "status" text, "retry_in_ms" int)),
       "attempt" as (
         insert into "webhook_delivery_attempts" ("delivery_id", "attempt_number", "status_code", "duration_ms", "response_excerpt", "error")
         select "delivery_id", "attempt_number", "status_code", "duration_ms", "response_excerpt", "error" from "outcome")
       update "webhook_deliveries" d
          set "status" = o."status", "updated_at" = ${NOW},
              "next_attempt_at" = case when o."retry_in_ms" is not null then ${NOW} + make_interval(secs => o."retry_in_ms" / 1000.0) else null end,
              "completed_at" = case when o."status" = 'PENDING' then null else ${NOW} end
         from "outcome" o
        where d."id" = o."delivery_id"`,
      [JSON.stringify(attempts)],
    );
  },

  /** The user's deliveries, newest first, optionally of one endpoint or notification target, or in one status. */
  list(em: StatementTarget, userId: number, query: DeliveryQuery): Promise<DeliveryRow[]> {
    return rowsOf<DeliveryRow>(
      em,
      `${DELIVERY_SELECT}
        where e."user_id" = ? and (? :: int is null or d."endpoint_id" = ?) and (? :: int is null or d."target_id" = ?)
          and (? :: text is null or d."status" = ?)
        order by d."id" desc limit ? offset ?`,
      [
        userId,
        query.endpointId ?? null,
        query.endpointId ?? null,
        query.targetId ?? null,
        query.targetId ?? null,
        query.status ?? null,
        query.status ?? null,
        query.limit,
        query.offset,
      ],
    );
  },

  async owned(em: StatementTarget, userId: number, deliveryId: number): Promise<DeliveryRow | null> {
    const [row] = await rowsOf<DeliveryRow>(em, `${DELIVERY_SELECT} where d."id" = ? and e."user_id" = ?`, [
      deliveryId,
      userId,
    ]);
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
    const rows = await rowsOf<{ status: string; count: string }>(
      em,
      'select "status", count(*) as "count" from "webhook_deliveries" group by "status"',
      [],
    );
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  },
};
