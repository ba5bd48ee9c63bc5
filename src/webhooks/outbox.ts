import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { label, PRODUCT_TYPE_LABELS } from '../subscriptions/codes';
import { presentSubscription } from '../subscriptions/record-shape';
import type { SubscriptionRecord } from '../subscriptions/subscription.record';
import { SUBSCRIPTION_TOPICS, type SubscriptionTopic } from './topics';

/** Tells the relay that events were committed, so it need not wait for its next poll. */
export class OutboxSignal {
  private readonly listeners: Array<() => void> = [];

  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}

export function newEventId(): string {
  return `evt_${randomUUID().replace(/-/g, '')}`;
}

/**
 * A delivery body as the spec's Events section shows it: the record with `product_type` as an object,
 * `tags` as an array, and the nested `folder`, `product` and `product_category`.
 */
export function eventPayload(record: SubscriptionRecord, tags: Array<{ id: number; name: string }>): Record<string, unknown> {
  return {
    ...presentSubscription(record),
    product_type: record.product_type === null ? null : { id: record.product_type, name: label(PRODUCT_TYPE_LABELS, record.product_type) },
    tags,
    folder:
      record.folder_id === null
        ? null
        : { id: record.folder_id, name: record.folder_name, color: record.folder_color, is_default: record.folder_is_default ?? 0 },
    product: {
      id: record.product_id,
      product_name: record.product_product_name,
      brandname: record.product_brandname,
      category_id: record.product_category_id,
      product_type: record.product_product_type,
      description: record.product_description,
    },
    product_category: record.category_id === null ? null : { id: record.category_id, name: record.category_name },
  };
}

/**
 * Writes events with the change that caused them, inside its transaction (the transactional outbox): one
 * event per record, and one delivery per enabled endpoint of the owner that takes the topic.
 */
export async function writeEvents(
  em: EntityManager,
  userId: number,
  topic: SubscriptionTopic,
  records: SubscriptionRecord[],
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (records.length === 0) return;
  const connection = em.getConnection();
  const tx = em.getTransactionContext();
  const ids = records.map((record) => record.id);
  const tagRows = await connection.execute<{ subscription_id: number; id: number; name: string }[]>(
    `select st."subscription_id", t."id", t."name" from "subscription_tags" st join "tags" t on t."id" = st."tag_id"
      where st."subscription_id" in (${ids.map(() => '?').join(', ')}) order by t."name"`,
    ids,
    'all',
    tx,
  );
  for (const record of records) {
    const tags = tagRows.filter((row) => row.subscription_id === record.id).map(({ id, name }) => ({ id, name }));
    const eventId = newEventId();
    await connection.execute(
      `insert into "webhook_events" ("id", "user_id", "topic", "subscription_id", "payload") values (?, ?, ?, ?, ?)`,
      [eventId, userId, topic, record.id, JSON.stringify({ ...eventPayload(record, tags), ...extra })],
      'run',
      tx,
    );
    await connection.execute(
      `insert into "webhook_deliveries" ("event_id", "endpoint_id", "next_attempt_at")
       select ?, e."id", (now() at time zone 'utc') from "webhook_endpoints" e
        where e."user_id" = ? and e."enabled"
          and (? = any(e."events") or (cardinality(e."events") = 0 and ? = any(?::text[])))`,
      [eventId, userId, topic, topic, `{${SUBSCRIPTION_TOPICS.join(',')}}`],
      'run',
      tx,
    );
  }
}
