import type { Caller } from '../platform/caller';
import { AppError } from '../platform/errors';
import { toGlobalId } from '../platform/graphql/global-ids';
import { money } from '../platform/graphql/money';
import type { LiveBus, LiveEvent } from '../platform/live-events';
import type { Logger } from '../platform/logger';
import type { SharedRecordAccess } from '../platform/shared-records';
import type { SubscriptionRecord } from '../subscriptions/subscription.record';
import { asRecordView } from '../subscriptions/subscription.types';
import type { DeliveryStatus } from '../webhooks/delivery.entity';
import type { DeliveryLogService } from '../webhooks/delivery-log.service';
import { toDeliveryView } from '../webhooks/webhooks.resolver';
import {
  type BudgetExceededView,
  type DeliveryChangedView,
  type RecordChangedView,
  RecordChangeKind,
  ReminderFiredKind,
  type ReminderFiredView,
} from './live.types';

const RECORD_TOPICS: Readonly<Record<string, RecordChangeKind>> = {
  'subscription.created': RecordChangeKind.CREATED,
  'subscription.updated': RecordChangeKind.UPDATED,
  'subscription.deleted': RecordChangeKind.DELETED,
  'subscription.canceled': RecordChangeKind.CANCELED,
  'subscription.refunded': RecordChangeKind.REFUNDED,
};

const REMINDER_TOPICS: Readonly<Record<string, ReminderFiredKind>> = {
  'subscription.payment_due': ReminderFiredKind.PAYMENT_DUE,
  'subscription.refund_due': ReminderFiredKind.REFUND_DUE,
  'subscription.contract_notice_due': ReminderFiredKind.CONTRACT_NOTICE_DUE,
};

/** What live updates read, each as the caller they are for. */
export interface LiveSources {
  bus: LiveBus;
  /** Reads a record as a caller (owner or household member); NOT_FOUND when they may not. */
  records: { get(caller: Caller, id: number): Promise<SubscriptionRecord> };
  /** The one rule of who besides its owner may read a record. */
  sharedRecords: SharedRecordAccess;
  /** The caller's deliveries and the bodies of their events. */
  deliveries: Pick<DeliveryLogService, 'get' | 'attempts' | 'eventPayload'>;
  logger: Logger;
}

/** The caller of one connection, and what to do when their token stops being valid. */
export interface LiveCaller {
  caller: Caller;
  /** Whether the connection's token is still live (asked at most once a minute, when an event comes). */
  stillValid(): Promise<boolean>;
  /** The token is no longer valid: the connection is closed. */
  revoked(): void;
}

/** Events waiting for a slow subscriber, at most; past it the oldest are dropped (a client reloads anyway). */
const QUEUE_LIMIT = 1_000;
const RECHECK_MS = 60_000;

/**
 * The events of the bus a subscriber may see, as their payloads: each event is read for the subscriber as
 * that subscriber (`select`: null skips it), in order, one at a time. Hand-written rather than an async
 * generator: `return()` must end it at once even while it waits for the next event.
 */
class CallerStream<T> implements AsyncIterableIterator<T> {
  private readonly pending: LiveEvent[] = [];
  private wake: (() => void) | null = null;
  private closed = false;
  private checkedAt = Date.now();
  private readonly unsubscribe: () => void;

  constructor(
    bus: LiveBus,
    private readonly who: LiveCaller,
    private readonly select: (event: LiveEvent) => Promise<T | null>,
    private readonly logger: Logger,
  ) {
    this.unsubscribe = bus.subscribe((event) => {
      this.pending.push(event);
      if (this.pending.length > QUEUE_LIMIT) this.pending.shift();
      this.wake?.();
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      if (this.closed) return { done: true, value: undefined };
      const event = this.pending.shift();
      if (!event) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = null;
        continue;
      }
      if (Date.now() - this.checkedAt > RECHECK_MS) {
        this.checkedAt = Date.now();
        if (!(await this.who.stillValid())) {
          this.end();
          this.who.revoked();
          continue;
        }
      }
      const value = await this.select(event).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'live event not read');
        return null;
      });
      if (value !== null && !this.closed) return { done: false, value };
    }
  }

  return(): Promise<IteratorResult<T>> {
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.pending.length = 0;
    this.wake?.();
  }
}

/** The live updates of one process: a stream per subscription, each scoped to its caller. */
export class LiveFeeds {
  constructor(private readonly sources: LiveSources) {}

  private stream<T>(who: LiveCaller, select: (event: LiveEvent) => Promise<T | null>): AsyncIterableIterator<T> {
    return new CallerStream(this.sources.bus, who, select, this.sources.logger);
  }

  /** Changes of the records the caller may read: their own, and those shared in a household they are a member of. */
  records(who: LiveCaller): AsyncIterableIterator<RecordChangedView> {
    const { caller } = who;
    return this.stream(who, async (event) => {
      if (event.kind !== 'event' || event.subscriptionId === null) return null;
      const kind = RECORD_TOPICS[event.topic];
      if (!kind) return null;
      const recordId = event.subscriptionId;
      // Visibility for this subscriber, asked afresh for every event: the owner, or a member of a household
      // the record is shared in now.
      if (
        event.userId !== caller.userId &&
        (await this.sources.sharedRecords.ownerFor(caller.userId, recordId, 'read')) !== event.userId
      )
        return null;
      return {
        kind,
        recordId: toGlobalId('SubscriptionRecord', recordId),
        record: await this.readRecord(caller, recordId),
      };
    });
  }

  /** The caller's own deliveries, written or changed status. */
  deliveries(who: LiveCaller): AsyncIterableIterator<DeliveryChangedView> {
    const { caller } = who;
    return this.stream(who, async (event) => {
      if (event.kind !== 'delivery' || event.userId !== caller.userId) return null;
      const row = await this.sources.deliveries.get(caller, event.deliveryId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
        throw error;
      });
      if (!row) return null;
      const delivery = toDeliveryView(row, await this.sources.deliveries.attempts([row.id]));
      return {
        deliveryId: toGlobalId('WebhookDelivery', event.deliveryId),
        status: event.status as DeliveryStatus,
        delivery,
      };
    });
  }

  /** The caller's reminders that fired (a shared record's reminders are its owner's). */
  reminders(who: LiveCaller): AsyncIterableIterator<ReminderFiredView> {
    const { caller } = who;
    return this.stream(who, async (event) => {
      if (event.kind !== 'event' || event.userId !== caller.userId || event.subscriptionId === null) return null;
      const kind = REMINDER_TOPICS[event.topic];
      if (!kind) return null;
      const payload = await this.eventPayload(caller, event.eventId);
      if (!payload) return null;
      const reminder = (payload.reminder ?? {}) as { date?: unknown; alert_id?: unknown };
      return {
        kind,
        recordId: toGlobalId('SubscriptionRecord', event.subscriptionId),
        date: typeof reminder.date === 'string' ? reminder.date : null,
        alertId: typeof reminder.alert_id === 'number' ? toGlobalId('Alert', reminder.alert_id) : null,
        record: await this.readRecord(caller, event.subscriptionId),
      };
    });
  }

  /** The caller's budget warnings. */
  budgets(who: LiveCaller): AsyncIterableIterator<BudgetExceededView> {
    const { caller } = who;
    return this.stream(who, async (event) => {
      if (event.kind !== 'event' || event.userId !== caller.userId || event.topic !== 'budget.exceeded') return null;
      const facts = await this.eventPayload(caller, event.eventId);
      if (!facts) return null;
      const currency = String(facts.currency);
      return {
        budgetId: toGlobalId('Budget', Number(facts.budget_id)),
        categoryId: typeof facts.category_id === 'number' ? toGlobalId('ProductCategory', facts.category_id) : null,
        categoryName: typeof facts.category_name === 'string' ? facts.category_name : null,
        month: String(facts.month),
        amount: money(String(facts.amount), currency),
        planned: money(String(facts.planned), currency),
        overBy: money(String(facts.over_by), currency),
      };
    });
  }

  /** The record as the caller reads it now; null once it is deleted. */
  private async readRecord(caller: Caller, id: number) {
    try {
      return asRecordView(await this.sources.records.get(caller, id));
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  /** An event's body, when it is the caller's. */
  private async eventPayload(caller: Caller, eventId: string): Promise<Record<string, unknown> | null> {
    return this.sources.deliveries.eventPayload(caller, eventId);
  }
}
