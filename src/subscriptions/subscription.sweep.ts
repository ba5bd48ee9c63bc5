import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { utcTimestamp } from '../platform/db/timestamps';
import type { ReminderScheduling } from '../platform/reminder-scheduling';
import type { OutboxSignal } from '../webhooks/outbox';
import { Status } from './codes';
import { nextOnOrAfter } from './payment-dates';
import type { PriceHistoryRepository } from './price-history.repository';
import type { Subscription } from './subscription.entity';
import { scheduleOf, todayCache } from './subscription.record';
import type { SubscriptionRepository } from './subscription.repository';
import type { SubscriptionWrites } from './subscription.writes';

/** Records whose next payment dates and reminders the sweep rolls on per statement. */
const ROLL_BATCH = 200;

/** The background sweep's work on records: dates rolled on, due price steps taken, contracts expired. */
export class SubscriptionSweep {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: SubscriptionRepository,
    private readonly priceHistory: PriceHistoryRepository,
    private readonly writes: SubscriptionWrites,
    private readonly reminders: ReminderScheduling,
    private readonly outbox: OutboxSignal,
    private readonly clock: () => Date,
  ) {}

  /**
   * Stored next payment dates that have passed (or were never stored) move forward, and the records'
   * reminders with them, in one statement per batch: a payment reminder is owed for the next payment only once
   * the date has moved on to it. Small statements, so a large installation is worked through.
   */
  async rollNextPaymentDates(limit = 1000): Promise<number> {
    const now = this.clock();
    const rows = await this.repository.staleNextPaymentDates(now, limit);
    const today = todayCache(now);
    for (let start = 0; start < rows.length; start += ROLL_BATCH) {
      const batch = rows.slice(start, start + ROLL_BATCH);
      const definitions = await this.reminders.definitionsOf([...new Set(batch.flatMap((row) => row.alert_ids))]);
      const dates = batch.map((row) => ({
        id: row.id,
        next_payment_date: nextOnOrAfter(scheduleOf(row), today(row.timezone)),
      }));
      const { due } = await this.transactions.runParts([
        this.repository.nextPaymentDatesPart(dates),
        this.reminders.changedRecordsPart(
          batch.map((record) => ({ record, deleted: false })),
          definitions,
        ),
      ]);
      if (due) this.outbox.notify();
    }
    return rows.length;
  }

  /** Records whose price history has reached a new step take its price, with a subscription.updated event each. */
  async applyDuePrices(limit = 1000): Promise<number> {
    const due = await this.priceHistory.duePrices(this.clock(), limit);
    for (const { id, user_id: userId, price } of due) {
      const owner: Caller = { userId, tokenId: null };
      await this.writes.changeOf(id, async () => {
        const values: Partial<Subscription> = { price, updatedAt: utcTimestamp() };
        const rows = await this.writes.changeRead(owner, id, 'none', values);
        if (rows.length > 0) await this.writes.writeChange(owner, 'subscription.updated', rows, { movesDates: false });
      });
    }
    return due.length;
  }

  /**
   * Active records whose expiry_date has passed in their own zone become Expired (4), each with its
   * subscription.updated event and its reminders cancelled, as any change is written. The status is read again
   * in the change, so a record changed meanwhile is left alone.
   */
  async expireDue(limit = 1000): Promise<number> {
    let expired = 0;
    for (const { id, user_id: userId } of await this.repository.dueForExpiry(this.clock(), limit)) {
      const owner: Caller = { userId, tokenId: null };
      await this.writes.changeOf(id, async () => {
        const values: Partial<Subscription> = { status: Status.Expired, updatedAt: utcTimestamp(this.clock()) };
        const rows = await this.writes.changeRead(owner, id, 'none', values);
        if (rows[0]?.status_before !== Status.Active) return;
        await this.writes.writeChange(owner, 'subscription.updated', rows);
        expired++;
      });
    }
    return expired;
  }
}
