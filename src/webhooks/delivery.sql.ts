import sql, { raw } from 'sql-template-tag';

import { intArray, type StatementPart } from '../platform/db/statements';
import { SUBSCRIPTION_TOPICS, type WebhookTopic } from './topics';

/** An event to write: its id, its record (none: a budget warning) and its body. */
export interface NewEvent {
  id: string;
  subscriptionId: number | null;
  payload: unknown;
}

/** The database's clock in UTC, as the deliveries' timestamps are kept. */
export const NOW = `(now() at time zone 'utc')`;

/**
 * A change's events and, for each, one delivery per enabled endpoint of the owner that takes its topic (an
 * empty list: every subscription topic), as a part of a larger statement (`given_events`, `event`,
 * `event_deliveries`); `toEndpoints` false writes the events alone (a reminder whose alert does not use
 * webhooks, for its targets' deliveries).
 */
export function eventsPart(
  userId: number,
  topic: WebhookTopic,
  events: readonly NewEvent[],
  toEndpoints = true,
): StatementPart {
  return {
    sql: sql`"given_events" as (
         select x->>'id' as "id", (x->>'subscriptionId')::int as "subscription_id", x->'payload' as "payload"
           from json_array_elements(${JSON.stringify(events)}::json) x),
       "event" as (
         insert into "webhook_events" ("id", "user_id", "topic", "subscription_id", "payload")
         select g."id", ${userId}, ${topic}, g."subscription_id", g."payload" from "given_events" g returning "id"),
       "event_deliveries" as (
         insert into "webhook_deliveries" ("event_id", "endpoint_id", "next_attempt_at")
         select ev."id", p."id", ${raw(NOW)} from "event" ev cross join "webhook_endpoints" p
          where p."user_id" = ${userId} and p."enabled" and ${toEndpoints}::boolean
            and (${topic} = any(p."events")
                 or (cardinality(p."events") = 0 and ${topic} = any(${`{${SUBSCRIPTION_TOPICS.join(',')}}`}::text[])))
         returning "id")`,
    due: 'exists (select from "event_deliveries")',
  };
}

/** One delivery of `message` to each of these notification targets per event of the statement's `event` part. */
export function targetDeliveriesPart(targetIds: readonly number[], message: unknown): StatementPart {
  return {
    sql: sql`"target_deliveries" as (
         insert into "webhook_deliveries" ("event_id", "target_id", "message", "next_attempt_at")
         select ev."id", t."id", ${JSON.stringify(message)}::jsonb, ${raw(NOW)}
           from "event" ev cross join unnest(${intArray(targetIds)}::int[]) as t("id") returning "id")`,
    due: 'exists (select from "target_deliveries")',
  };
}
