import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { intArray, type StatementPart } from '../platform/db/statements';
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
  constructor(private readonly db: DataSource) {}

  /**
   * Each record's scheduled reminders become exactly its `owed` ones, as a part of a statement: others are
   * cancelled, owed ones made or moved (a sent one stays sent). The cancelled and the owed rows never overlap.
   */
  keptPart(records: ReadonlyArray<OwedReminders>): StatementPart {
    const owed = this.owedPart(records);
    const ids = intArray(records.map(({ record }) => record.id));
    return {
      sql: sql`${owed.sql},
       "cancelled" as (
         update "reminders" r set "status" = 'CANCELLED'
          where r."subscription_id" = any(${ids}::int[]) and r."status" = 'SCHEDULED'
            and not exists (select 1 from "owed" o where o."subscription_id" = r."subscription_id" and o."alert_id" = r."alert_id"
                              and o."kind" = r."kind" and o."reminder_date" = r."reminder_date"))`,
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
      sql: sql`"owed" as (
         select * from jsonb_to_recordset(${JSON.stringify([...owed.values()])}::jsonb)
           as o("user_id" int, "subscription_id" int, "alert_id" int, "kind" text, "reminder_date" date, "fire_at" timestamp)),
       "owed_made" as (
         insert into "reminders" ("user_id", "subscription_id", "alert_id", "kind", "reminder_date", "fire_at")
         select "user_id", "subscription_id", "alert_id", "kind", "reminder_date", "fire_at" from "owed"
         on conflict ("subscription_id", "alert_id", "kind", "reminder_date") do update
           set "fire_at" = excluded."fire_at", "status" = 'SCHEDULED' where "reminders"."status" <> 'SENT')`,
    };
  }

  /** Scheduled reminders whose time is at or before `until`, soonest first. */
  scheduledUntil(until: Date, limit: number): Promise<Array<{ id: number; fire_at: string }>> {
    return this.db.rows(
      sql`select "id", "fire_at" from "reminders"
           where "status" = 'SCHEDULED' and "fire_at" <= ${utcTimestamp(until)} order by "fire_at" limit ${limit}`,
    );
  }

  /** Marks the reminder sent if it is still scheduled and due at `now`; null when it was not (fired already, or cancelled). */
  async markSent(reminderId: number, now: Date): Promise<ReminderRow | null> {
    const sentAt = utcTimestamp(now);
    const reminder = await this.db.row<ReminderRow>(
      sql`update "reminders" set "status" = 'SENT', "sent_at" = ${sentAt}
           where "id" = ${reminderId} and "status" = 'SCHEDULED' and "fire_at" <= ${sentAt} returning *`,
    );
    return reminder ?? null;
  }

  /** The user's reminders firing within [from, to] in these statuses, in fire order. */
  firingBetween(userId: number, from: Date, to: Date, statuses: Array<ReminderRow['status']>): Promise<ReminderRow[]> {
    return this.db.rows<ReminderRow>(
      sql`select * from "reminders"
           where "user_id" = ${userId} and "fire_at" between ${utcTimestamp(from)} and ${utcTimestamp(to)}
             and "status" = any(${`{${statuses.join(',')}}`}::text[])
           order by "fire_at", "id"`,
    );
  }

  /** The user's reminder of this id (for node(id:)). */
  async own(userId: number, id: number): Promise<ReminderRow | null> {
    return (
      (await this.db.row<ReminderRow>(sql`select * from "reminders" where "id" = ${id} and "user_id" = ${userId}`)) ??
      null
    );
  }

  /** The user's sent reminders of live records dated `today` or later. */
  sentFrom(userId: number, today: string): Promise<ReminderRow[]> {
    return this.db.rows<ReminderRow>(
      sql`select r.* from "reminders" r join "subscriptions" s on s."id" = r."subscription_id"
           where r."user_id" = ${userId} and r."status" = 'SENT' and r."reminder_date" >= ${today}
             and s."deleted_at" is null
           order by r."reminder_date", r."id"`,
    );
  }
}
