import type { MikroORM } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Caller } from '../platform/caller';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { toMoneyString } from '../platform/money';
import { addDays } from '../platform/dates';
import { recordSelect, toRecord, type SubscriptionRecord, type SubscriptionRow } from '../subscriptions/subscription.record';
import type { OutboxSignal } from '../webhooks/outbox';
import { writeRecordEvents } from '../subscriptions/subscription.events';
import type { ReminderMailer } from './reminder-mail';
import { channelsOf } from '../alerts/alert.input';
import { reminderTargets, type ReminderDefinition, type ReminderKind, type ReminderTarget } from './reminder-schedule';

export interface ReminderRow {
  id: number;
  user_id: number;
  subscription_id: number;
  alert_id: number;
  kind: ReminderKind;
  reminder_date: string;
  fire_at: string;
  status: 'SCHEDULED' | 'SENT' | 'CANCELLED';
  sent_at: string | null;
}

/** Records rescheduled per transaction by a sweep. */
const SWEEP_BATCH = 200;

export interface DueReminder {
  reminderId: number;
  fireAt: Date;
}

interface ScheduledRecordRow {
  id: number;
  user_id: number;
  type: number;
  status: number;
  recurring: number;
  timezone: string;
  payment_date: string;
  billing_type: number;
  billing_cycle: number;
  billing_frequency: number;
  refund_days: number | null;
  deleted_at: string | null;
  alert_ids: number[];
}

/**
 * Keeps the reminder rows every (record, alert definition) pair owes, and fires them: each row fires at most
 * once (its status moves from SCHEDULED to SENT in the same transaction as the webhook event it writes).
 */
export class ReminderService {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly outbox: OutboxSignal,
    private readonly mailer: ReminderMailer | null,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Brings the reminders of these records in line with the records and their definitions, inside the
   * caller's transaction: owed reminders are made (or moved to their new fire time), others are cancelled.
   */
  async reschedule(em: EntityManager, subscriptionIds: number[]): Promise<void> {
    if (subscriptionIds.length === 0) return;
    const connection = em.getConnection();
    const tx = em.getTransactionContext();
    const records = await connection.execute<ScheduledRecordRow[]>(
      `select s."id", s."user_id", s."type", s."status", s."recurring", s."timezone", s."payment_date", s."billing_type",
              s."billing_cycle", s."billing_frequency", s."refund_days", s."deleted_at",
              array(select s."alert_id" where s."alert_id" is not null union select sa."alert_id" from "subscription_alerts" sa where sa."subscription_id" = s."id") as "alert_ids"
         from "subscriptions" s where s."id" in (${subscriptionIds.map(() => '?').join(', ')})`,
      subscriptionIds,
      'all',
      tx,
    );
    const alertIds = [...new Set(records.flatMap((record) => record.alert_ids))];
    const definitions =
      alertIds.length === 0
        ? []
        : await connection.execute<Array<ReminderDefinition & { id: number }>>(
            `select "id", "time_period" as "timePeriod", "time_cycle" as "timeCycle", "time", "timezone", "alert_condition" as "alertCondition",
              case when "user_id" is null then null else "alert_subs_type" end as "alertSubsType" from "alerts" where "id" in (${alertIds.map(() => '?').join(', ')})`,
            alertIds,
            'all',
            tx,
          );
    const now = this.clock();
    for (const record of records) {
      const owed: ReminderTarget[] =
        record.deleted_at !== null
          ? []
          : reminderTargets(
              {
                type: record.type,
                status: record.status,
                recurring: record.recurring,
                timezone: record.timezone,
                schedule: {
                  anchor: record.payment_date,
                  billingType: record.billing_type,
                  billingCycle: record.billing_cycle,
                  billingFrequency: record.billing_frequency,
                },
                refundDate: record.refund_days === null ? null : addDays(record.payment_date, record.refund_days),
              },
              definitions.filter((definition) => record.alert_ids.includes(definition.id)),
              now,
            );
      const keys = owed.map((target) => `${target.alertId}|${target.kind}|${target.date}`);
      await connection.execute(
        `update "reminders" set "status" = 'CANCELLED'
          where "subscription_id" = ? and "status" = 'SCHEDULED' and not ("alert_id" || '|' || "kind" || '|' || "reminder_date"::text = any(?::text[]))`,
        [record.id, `{${keys.map((key) => `"${key}"`).join(',')}}`],
        'run',
        tx,
      );
      for (const target of owed) {
        await connection.execute(
          `insert into "reminders" ("user_id", "subscription_id", "alert_id", "kind", "reminder_date", "fire_at") values (?, ?, ?, ?, ?, ?)
           on conflict ("subscription_id", "alert_id", "kind", "reminder_date") do update
             set "fire_at" = excluded."fire_at", "status" = 'SCHEDULED' where "reminders"."status" <> 'SENT'`,
          [record.user_id, record.id, target.alertId, target.kind, target.date, utcTimestamp(target.fireAt)],
          'run',
          tx,
        );
      }
    }
  }

  /** The records that use an alert definition, as their first alert or another one. */
  async recordsUsingAlert(em: EntityManager, alertId: number): Promise<number[]> {
    const rows = await em
      .getConnection()
      .execute<{ id: number }[]>(
        `select "id" from "subscriptions" where "alert_id" = ? union select "subscription_id" from "subscription_alerts" where "alert_id" = ?`,
        [alertId, alertId],
        'all',
        em.getTransactionContext(),
      );
    return rows.map((row) => row.id);
  }

  /**
   * Rolls reminders forward: active records with no scheduled reminder (the last one fired, or the record
   * predates its reminders) are rescheduled, at most `limit` per run in small transactions, so a large
   * installation is worked through over a few runs instead of loading the database at once.
   */
  async sweep(limit = SWEEP_BATCH * 10): Promise<number> {
    const rows = await this.orm.em.getConnection().execute<{ id: number }[]>(
      `select s."id" from "subscriptions" s
        where s."deleted_at" is null and s."status" = 1
          and not exists (select 1 from "reminders" r where r."subscription_id" = s."id" and r."status" = 'SCHEDULED')
        order by s."id" limit ?`,
      [limit],
    );
    for (let start = 0; start < rows.length; start += SWEEP_BATCH) {
      await this.orm.em.transactional((em) =>
        this.reschedule(
          em,
          rows.slice(start, start + SWEEP_BATCH).map((row) => row.id),
        ),
      );
    }
    return rows.length;
  }

  /** Reminders that have not fired and whose time comes within `lookAheadMs` (0: has come). */
  async claimDue(limit: number, lookAheadMs = 0): Promise<DueReminder[]> {
    if (limit <= 0) return [];
    const rows = await this.orm.em
      .getConnection()
      .execute<{ id: number; fire_at: string }[]>(
        `select "id", "fire_at" from "reminders" where "status" = 'SCHEDULED' and "fire_at" <= ? order by "fire_at" limit ?`,
        [utcTimestamp(new Date(this.clock().getTime() + lookAheadMs)), limit],
      );
    return rows.map((row) => ({ reminderId: row.id, fireAt: new Date(`${row.fire_at.replace(' ', 'T')}Z`) }));
  }

  /** Fires one reminder through its definition's channels; a reminder already fired (or cancelled) is left alone. */
  async fire(reminderId: number): Promise<void> {
    const fired = await this.orm.em.transactional(async (em) => {
      const connection = em.getConnection();
      const tx = em.getTransactionContext();
      const firedAt = utcTimestamp(this.clock());
      const [reminder] = await connection.execute<ReminderRow[]>(
        `update "reminders" set "status" = 'SENT', "sent_at" = ? where "id" = ? and "status" = 'SCHEDULED' and "fire_at" <= ? returning *`,
        [firedAt, reminderId, firedAt],
        'all',
        tx,
      );
      if (!reminder) return null;
      const [row] = await connection.execute<SubscriptionRow[]>(recordSelect('where s."id" = ?'), [reminder.subscription_id], 'all', tx);
      const [alert] = await connection.execute<{ alert_type: number; alert_contact: string | null; email: string }[]>(
        `select a."alert_type", a."alert_contact", u."email" from "alerts" a, "users" u where a."id" = ? and u."id" = ?`,
        [reminder.alert_id, reminder.user_id],
        'all',
        tx,
      );
      const record = toRecord(row, this.clock());
      if (channelsOf(alert.alert_type).includes('webhook')) {
        await writeRecordEvents(em, reminder.user_id, reminder.kind === 'payment' ? 'subscription.payment_due' : 'subscription.refund_due', [record], {
          reminder: { kind: reminder.kind, date: reminder.reminder_date, alert_id: reminder.alert_id },
        });
      }
      return { reminder, record, alert };
    });
    if (!fired) return;
    this.outbox.notify();
    if (this.mailer && channelsOf(fired.alert.alert_type).includes('email')) {
      await this.mail(fired.alert.alert_contact ?? fired.alert.email, fired.record, fired.reminder.kind, fired.reminder.reminder_date);
    }
  }

  /** The caller's reminders fired within [from, to] or due then, in fire order. */
  async list(caller: Caller, from: Date, to: Date, statuses: Array<ReminderRow['status']>): Promise<ReminderRow[]> {
    return this.orm.em
      .getConnection()
      .execute<ReminderRow[]>(
        `select * from "reminders" where "user_id" = ? and "fire_at" between ? and ? and "status" = any(?::text[]) order by "fire_at", "id"`,
        [caller.userId, utcTimestamp(from), utcTimestamp(to), `{${statuses.join(',')}}`],
      );
  }

  /** Reminders that fired and whose date has not passed: what the browser extension shows. */
  async due(caller: Caller): Promise<ReminderRow[]> {
    return this.orm.em.getConnection().execute<ReminderRow[]>(
      `select r.* from "reminders" r join "subscriptions" s on s."id" = r."subscription_id"
        where r."user_id" = ? and r."status" = 'SENT' and r."reminder_date" >= ? and s."deleted_at" is null order by r."reminder_date", r."id"`,
      [caller.userId, utcTimestamp(this.clock()).slice(0, 10)],
    );
  }

  /** Sends a sample reminder through an alert's channels now (the caller's soonest record, or a made-up one). */
  async sendTest(caller: Caller, alertId: number): Promise<string[]> {
    const [alert] = await this.orm.em
      .getConnection()
      .execute<{ alert_type: number; alert_contact: string | null; email: string }[]>(
        `select a."alert_type", a."alert_contact", u."email" from "alerts" a join "users" u on u."id" = ? where a."id" = ? and (a."user_id" is null or a."user_id" = ?)`,
        [caller.userId, alertId, caller.userId],
      );
    if (!alert) throw AppError.notFound('Alert');
    const channels: string[] = [];
    const wanted = channelsOf(alert.alert_type);
    const [row] = await this.orm.em
      .getConnection()
      .execute<SubscriptionRow[]>(recordSelect('where s."user_id" = ? and s."deleted_at" is null order by s."id" limit 1'), [caller.userId]);
    // E-mail alone cannot go without SMTP; "All" goes through the channels there are.
    if (wanted.length === 1 && wanted[0] === 'email' && !this.mailer) throw new AppError('CONFLICT', 'E-mail reminders need SMTP_URL to be set on the server');
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
      await this.orm.em.transactional((em) =>
        writeRecordEvents(em, caller.userId, 'subscription.payment_due', [record], {
          reminder: { kind: 'payment', date: record.next_payment_date ?? record.payment_date, alert_id: alertId, test: true },
        }),
      );
      this.outbox.notify();
      channels.push('webhook');
    }
    if (wanted.includes('browser')) channels.push('browser');
    return channels;
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
