import { randomUUID } from 'node:crypto';

import type { StatementPart } from '../platform/db/statements';
import { eventsPart as deliveryEventsPart } from './delivery.sql';
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
 * Events with the change that caused them, as a part of its statement (the transactional outbox): one event
 * per record, and one delivery per enabled endpoint of the owner that takes the topic.
 */
export function eventsPart(
  userId: number,
  topic: WebhookTopic,
  events: OutboxEvent[],
  toEndpoints?: boolean,
): StatementPart {
  return deliveryEventsPart(userId, topic, identified(events), toEndpoints);
}

function identified(events: OutboxEvent[]) {
  return events.map((event) => ({ id: newEventId(), subscriptionId: event.subscriptionId, payload: event.payload }));
}
