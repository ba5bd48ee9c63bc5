import { ALL_CHANNELS, channelsOf } from '../alerts/alert.input';
import type { AlertRepository } from '../alerts/alert.repository';
import { reminderMessage } from '../notifications/notification-message';
import type { NotificationTargetRepository } from '../notifications/notification-target.repository';
import type { Caller } from '../platform/caller';
import { addDays, todayIn } from '../platform/dates';
import type { Transactions } from '../platform/db/data-source';
import type { StatementPart } from '../platform/db/statements';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { toMoneyString } from '../platform/money';
import type { ScheduledRecord } from '../platform/reminder-scheduling';
import { recordEventsPart } from '../subscriptions/subscription.events';
import { scheduleOf, type SubscriptionRecord, toRecord } from '../subscriptions/subscription.record';
import type { SubscriptionRepository } from '../subscriptions/subscription.repository';
import { targetDeliveriesPart } from '../webhooks/delivery.sql';
import type { OutboxSignal } from '../webhooks/outbox';
import type { SubscriptionTopic } from '../webhooks/topics';
import type { OwedReminders, ReminderRepository, ReminderRow } from './reminder.repository';
import type { ReminderMailer } from './reminder-mail';
import { REMINDER_LOOK_AHEAD_MS } from './reminder-queue';
import { type ReminderDefinition, type ReminderKind, type ReminderTarget, reminderTargets } from './reminder-schedule';

/** The webhook topic of each kind of reminder. */
const REMINDER_TOPIC: Record<ReminderKind, SubscriptionTopic> = {
  payment: 'subscription.payment_due',
  refund: 'subscription.refund_due',
  contract_notice: 'subscription.contract_notice_due',
};

export interface DueReminder {
  reminderId: number;
  fireAt: Date;
}

/**
 * Keeps the reminder rows every (record, alert definition) pair owes, and fires them: each row fires at most
 * once (its status moves from SCHEDULED to SENT in the same transaction as the webhook event it writes).
 */
export class ReminderService {
  constructor(
    private readonly transactions: Transactions,
    private readonly reminders: ReminderRepository,
    private readonly subscriptions: SubscriptionRepository,
    private readonly alerts: AlertRepository,
    private readonly targets: NotificationTargetRepository,
    private readonly outbox: OutboxSignal,
    private readonly mailer: ReminderMailer | null,
    private readonly logger: Logger,
    private readonly baseUrl: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Brings the reminders of these records in line with the records and their definitions, inside the
   * caller's transaction: owed reminders are made (or moved to their new fire time), others are cancelled.
   */
  async reschedule(subscriptionIds: number[]): Promise<void> {
    if (subscriptionIds.length === 0) return;
    const records = await this.subscriptions.schedulingRows(subscriptionIds);
    const definitions = await this.definitionsOf([...new Set(records.flatMap((record) => record.alert_ids))]);
    await this.transactions.runParts([
      this.changedRecordsPart(
        records.map((record) => ({ record, deleted: record.deleted_at !== null })),
        definitions,
      ),
    ]);
  }

  definitionsOf(alertIds: readonly number[]): Promise<ReminderDefinition[]> {
    return this.alerts.definitions([...alertIds]);
  }

  /** New records' reminders, as a part of the statement that inserts them (their definitions read beforehand). */
  newRecordsPart(records: readonly ScheduledRecord[], definitions: ReminderDefinition[]): StatementPart {
    const now = this.clock();
    const owed = records.map((record) => ({ record, owed: owedReminders(record, definitions, now) }));
    return { ...this.reminders.owedPart(owed), ...dueIfFiringSoon(owed, now) };
  }

  changedRecordsPart(
    records: ReadonlyArray<{ record: ScheduledRecord; deleted: boolean }>,
    definitions: ReminderDefinition[],
  ): StatementPart {
    const now = this.clock();
    const owed = records.map(({ record, deleted }) => ({
      record,
      owed: deleted ? [] : owedReminders(record, definitions, now),
    }));
    return { ...this.reminders.keptPart(owed), ...dueIfFiringSoon(owed, now) };
  }

  /** The records that use an alert definition, as their first alert or another one. */
  recordsUsingAlert(alertId: number): Promise<number[]> {
    return this.subscriptions.usingAlert(alertId);
  }

  /** Reminders that have not fired and whose time comes within `lookAheadMs` (0: has come). */
  async claimDue(limit: number, lookAheadMs = 0): Promise<DueReminder[]> {
    if (limit <= 0) return [];
    const rows = await this.reminders.scheduledUntil(new Date(this.clock().getTime() + lookAheadMs), limit);
    return rows.map((row) => ({ reminderId: row.id, fireAt: new Date(`${row.fire_at.replace(' ', 'T')}Z`) }));
  }

  /**
   * Fires one reminder through its definition's channels and notification targets (one delivery each, written
   * with the SENT mark); a reminder already fired (or cancelled) is left alone.
   */
  async fire(reminderId: number): Promise<void> {
    const fired = await this.transactions.transaction(async () => {
      const now = this.clock();
      const reminder = await this.reminders.markSent(reminderId, now);
      if (!reminder) return null;
      const row = (await this.subscriptions.anyById(reminder.subscription_id))!;
      const alert = (await this.alerts.contact(reminder.alert_id, reminder.user_id))!;
      const record = toRecord(row, now);
      const toEndpoints = channelsOf(alert.alert_type).includes('webhook');
      const targetIds = await this.targets.forAlert(
        reminder.user_id,
        reminder.alert_id,
        alert.alert_type === ALL_CHANNELS,
      );
      if (toEndpoints || targetIds.length > 0) {
        const topic = REMINDER_TOPIC[reminder.kind];
        const message = reminderMessage({
          id: reminder.id.toString(),
          test: false,
          kind: reminder.kind,
          date: reminder.reminder_date,
          today: todayIn(record.timezone, now),
          record,
          country: alert.country,
          baseUrl: this.baseUrl,
        });
        const extra = { reminder: { kind: reminder.kind, date: reminder.reminder_date, alert_id: reminder.alert_id } };
        await this.transactions.runParts([
          await this.reminderEventPart(reminder.user_id, topic, record, { extra, toEndpoints }),
          ...(targetIds.length > 0 ? [targetDeliveriesPart(targetIds, message)] : []),
        ]);
      }
      return { reminder, record, alert };
    });
    if (!fired) return;
    this.outbox.notify();
    if (this.mailer && channelsOf(fired.alert.alert_type).includes('email')) {
      await this.mail(
        fired.alert.alert_contact ?? fired.alert.email,
        fired.record,
        fired.reminder.kind,
        fired.reminder.reminder_date,
      );
    }
  }

  /** The caller's reminders fired within [from, to] or due then, in fire order. */
  async list(caller: Caller, from: Date, to: Date, statuses: Array<ReminderRow['status']>): Promise<ReminderRow[]> {
    return this.reminders.firingBetween(caller.userId, from, to, statuses);
  }

  /** One of the caller's reminders (node(id:)); another user's is not found. */
  async get(caller: Caller, id: number): Promise<ReminderRow> {
    const row = await this.reminders.own(caller.userId, id);
    if (!row) throw AppError.notFound('Reminder');
    return row;
  }

  /** Reminders that fired and whose date has not passed: what the browser extension shows. */
  async due(caller: Caller): Promise<ReminderRow[]> {
    return this.reminders.sentFrom(caller.userId, utcTimestamp(this.clock()).slice(0, 10));
  }

  /** Sends a sample reminder through an alert's channels now (the caller's soonest record, or a made-up one). */
  async sendTest(caller: Caller, alertId: number): Promise<string[]> {
    const alert = await this.alerts.contact(alertId, caller.userId);
    if (!alert) throw AppError.notFound('Alert');
    const channels: string[] = [];
    const wanted = channelsOf(alert.alert_type);
    const row = await this.subscriptions.firstLive(caller.userId);
    // E-mail alone cannot go without SMTP; "All" goes through the channels there are.
    if (wanted.length === 1 && wanted[0] === 'email' && !this.mailer)
      throw new AppError('CONFLICT', 'E-mail reminders need SMTP_URL to be set on the server');
    if (wanted.includes('email') && this.mailer) {
      const sample = row ? toRecord(row, this.clock()) : null;
      await this.mail(
        alert.alert_contact ?? alert.email,
        sample,
        'payment',
        sample?.next_payment_date ?? sample?.payment_date ?? utcTimestamp(this.clock()).slice(0, 10),
      );
      channels.push('email');
    }
    if (wanted.includes('webhook') && row) {
      const record = toRecord(row, this.clock());
      const extra = {
        reminder: {
          kind: 'payment',
          date: record.next_payment_date ?? record.payment_date,
          alert_id: alertId,
          test: true,
        },
      };
      await this.transactions.runParts([
        await this.reminderEventPart(caller.userId, 'subscription.payment_due', record, { extra }),
      ]);
      this.outbox.notify();
      channels.push('webhook');
    }
    if (wanted.includes('browser')) channels.push('browser');
    return channels;
  }

  /** A reminder's event about its record, with the record's tags as every record event carries them. */
  private async reminderEventPart(
    userId: number,
    topic: SubscriptionTopic,
    record: SubscriptionRecord,
    options: Parameters<typeof recordEventsPart>[3],
  ): Promise<StatementPart> {
    const tags = await this.subscriptions.tagsOf([record.id]);
    return recordEventsPart(userId, topic, [{ record, tags }], options);
  }

  private async mail(to: string, record: SubscriptionRecord | null, kind: ReminderKind, date: string): Promise<void> {
    try {
      await this.mailer!.send({
        to,
        productName: record?.product_name ?? 'Your subscription',
        amount: record ? toMoneyString(record.price) : '0.00',
        currency: record?.price_type ?? 'USD',
        kind,
        date,
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'reminder e-mail failed');
      throw error;
    }
  }
}

/** The reminders a record owes now from those of the definitions it uses. */
function owedReminders(record: ScheduledRecord, definitions: ReminderDefinition[], now: Date): ReminderTarget[] {
  return reminderTargets(
    {
      type: record.type,
      status: record.status,
      recurring: record.recurring,
      timezone: record.timezone,
      schedule: scheduleOf(record),
      refundDate: record.refund_days === null ? null : addDays(record.payment_date, record.refund_days),
      noticeDate:
        record.contract_expiry === null ? null : addDays(record.contract_expiry, -(record.contract_notice_days ?? 0)),
    },
    definitions.filter((definition) => record.alert_ids.includes(definition.id)),
    now,
  );
}

/** A part's `due` when one of its reminders fires within the relays' look-ahead: the reminder relay then takes it now. */
function dueIfFiringSoon(records: ReadonlyArray<OwedReminders>, now: Date): Pick<StatementPart, 'due'> {
  const soon = now.getTime() + REMINDER_LOOK_AHEAD_MS;
  return records.some(({ owed }) => owed.some((target) => target.fireAt.getTime() <= soon)) ? { due: 'true' } : {};
}
