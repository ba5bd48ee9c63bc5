import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
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

/** One event of a change: the record it is about and the delivery body. */
export interface OutboxEvent {
  subscriptionId: number;
  payload: Record<string, unknown>;
}

/**
 * Writes events with the change that caused them, inside its transaction (the transactional outbox): one
 * event per record, and one delivery per enabled endpoint of the owner that takes the topic.
 */
export async function writeEvents(em: EntityManager, userId: number, topic: SubscriptionTopic, events: OutboxEvent[]): Promise<void> {
  const connection = em.getConnection();
  const tx = em.getTransactionContext();
  for (const event of events) {
    const eventId = newEventId();
    await connection.execute(
      `insert into "webhook_events" ("id", "user_id", "topic", "subscription_id", "payload") values (?, ?, ?, ?, ?)`,
      [eventId, userId, topic, event.subscriptionId, JSON.stringify(event.payload)],
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
