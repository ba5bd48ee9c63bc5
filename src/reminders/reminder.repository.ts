import type { MikroORM } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';

import { intArray, pooled, rowsOf, run, type StatementPart, withParts } from '../platform/db/statements';
import { utcTimestamp } from '../platform/db/timestamps';
import type { ReminderKind, ReminderTarget } from './reminder-schedule';

/** The reminders one record owes. */
export interface OwedReminders {
  record: { id: number; user_id: number };
  owed: readonly ReminderTarget[];
}

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

/** The one door to the reminders table. */
export class ReminderRepository {
  constructor(private readonly orm: MikroORM<PostgreSqlDriver>) {}

  /**
   * Each record's scheduled reminders become exactly its `owed` ones, in one statement: others are cancelled,
   * owed ones made or moved (a sent one stays sent). The cancelled and the owed rows never overlap.
   */
  async keepOnly(em: EntityManager, records: ReadonlyArray<OwedReminders>): Promise<void> {
    if (records.length === 0) return;
    const { sql, params } = withParts([this.keptPart(records)], 'select 1');
    await run(em, sql, params);
  }

  /** keepOnly as a part of a larger statement (a change of the records). */
  keptPart(records: ReadonlyArray<OwedReminders>): StatementPart {
    const owed = this.owedPart(records);
    return {
      sql: `${owed.sql},
       "cancelled" as (
         update "reminders" r set "status" = 'CANCELLED'
          where r."subscription_id" = any(?::int[]) and r."status" = 'SCHEDULED'
            and not exists (select 1 from "owed" o where o."subscription_id" = r."subscription_id" and o."alert_id" = r."alert_id"
                              and o."kind" = r."kind" and o."reminder_date" = r."reminder_date"))`,
      params: [...owed.params, intArray(records.map(({ record }) => record.id))],
    };
  }

  /**
   * The owed reminders of these records made, or moved to their new fire time (a sent one stays sent), as a
   * part of a larger statement: `owed` holds them, `owed_made` writes them.
   */
  owedPart(records: ReadonlyArray<OwedReminders>): StatementPart {
    const owed = new Map<string, Record<string, unknown>>();
    for (const { record, owed: targets } of records) {
      for (const target of targets) {
        owed.set(`${record.id}|${target.alertId}|${target.kind}|${target.date}`, {
          user_id: record.user_id,
          subscription_id: record.id,
          alert_id: target.alertId,
          kind: target.kind,
          reminder_date: target.date,
          fire_at: utcTimestamp(target.fireAt),
        });
      }
    }
    return {
      sql: `"owed" as (
         select * from jsonb_to_recordset(?::jsonb)
           as o("user_id" int, "subscription_id" int, "alert_id" int, "kind" text, "reminder_date" date, "fire_at" timestamp)),
       "owed_made" as (
         insert into "reminders" ("user_id", "subscription_id", "alert_id", "kind", "reminder_date", "fire_at")
         select "user_id", "subscription_id", "alert_id", "kind", "reminder_date", "fire_at" from "owed"
         on conflict ("subscription_id", "alert_id", "kind", "reminder_date") do update
           set "fire_at" = excluded."fire_at", "status" = 'SCHEDULED' where "reminders"."status" <> 'SENT')`,
      params: [JSON.stringify([...owed.values()])],
    };
  }

  /** Scheduled reminders whose time is at or before `until`, soonest first. */
  scheduledUntil(until: Date, limit: number): Promise<Array<{ id: number; fire_at: string }>> {
    return rowsOf(
      pooled(this.orm),
      `select "id", "fire_at" from "reminders" where "status" = 'SCHEDULED' and "fire_at" <= ? order by "fire_at" limit ?`,
      [utcTimestamp(until), limit],
    );
  }

  /** Marks the reminder sent if it is still scheduled and due at `now`; null when it was not (fired already, or cancelled). */
  async markSent(em: EntityManager, reminderId: number, now: Date): Promise<ReminderRow | null> {
    const sentAt = utcTimestamp(now);
    const [reminder] = await rowsOf<ReminderRow>(
      em,
      `update "reminders" set "status" = 'SENT', "sent_at" = ? where "id" = ? and "status" = 'SCHEDULED' and "fire_at" <= ? returning *`,
      [sentAt, reminderId, sentAt],
    );
    return reminder ?? null;
  }

  /** The user's reminders firing within [from, to] in these statuses, in fire order. */
  firingBetween(userId: number, from: Date, to: Date, statuses: Array<ReminderRow['status']>): Promise<ReminderRow[]> {
    return rowsOf<ReminderRow>(
      pooled(this.orm),
      `select * from "reminders" where "user_id" = ? and "fire_at" between ? and ? and "status" = any(?::text[]) order by "fire_at", "id"`,
      [userId, utcTimestamp(from), utcTimestamp(to), `{${statuses.join(',')}}`],
    );
  }

  /** The user's sent reminders of live records dated `today` or later. */
  sentFrom(userId: number, today: string): Promise<ReminderRow[]> {
    return rowsOf<ReminderRow>(
      pooled(this.orm),
      `select r.* from "reminders" r join "subscriptions" s on s."id" = r."subscription_id"
        where r."user_id" = ? and r."status" = 'SENT' and r."reminder_date" >= ? and s."deleted_at" is null order by r."reminder_date", r."id"`,
      [userId, today],
    );
  }
}
