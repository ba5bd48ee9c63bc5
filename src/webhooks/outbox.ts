import { randomUUID } from 'node:crypto';

import type { EntityManager } from '@mikro-orm/postgresql';

import type { StatementPart } from '../platform/db/statements';
import { deliveryRepository, type EventNotifications } from './delivery.repository';
import type { WebhookTopic } from './topics';

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

/** One event of a change: the record it is about (none: a budget warning) and the delivery body. */
export interface OutboxEvent {
  subscriptionId: number | null;
  payload: Record<string, unknown>;
}

/**
 * Writes events with the change that caused them, inside its transaction (the transactional outbox): one
 * event per record, and one delivery per enabled endpoint of the owner that takes the topic.
 */
export async function writeEvents(
  em: EntityManager,
  userId: number,
  topic: WebhookTopic,
  events: OutboxEvent[],
  notify?: EventNotifications,
): Promise<void> {
  if (events.length === 0) return;
  await deliveryRepository.insertEvents(em, userId, topic, identified(events), notify);
}

/** writeEvents as a part of the statement that makes the change (a create writes everything in one). */
export function eventsPart(userId: number, topic: WebhookTopic, events: OutboxEvent[]): StatementPart {
  return deliveryRepository.eventsPart(userId, topic, identified(events));
}

function identified(events: OutboxEvent[]) {
  return events.map((event) => ({ id: newEventId(), subscriptionId: event.subscriptionId, payload: event.payload }));
}
