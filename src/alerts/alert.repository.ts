import { intArray, rowsOf, type StatementTarget } from '../platform/db/statements';
import { globalOrOwnSql } from '../platform/caller';

/** What an alert definition says about when its reminders fire. */
export interface ReminderDefinition {
  id: number;
  timePeriod: number;
  /** 1 days, 2 weeks, 3 months; null means days. */
  timeCycle: number | null;
  /** Local `HH:MM:SS` in `timezone`. */
  time: string;
  timezone: string;
  /** 1 payment and refund dates, 2 payment (due) date, 3 refund date. */
  alertCondition: number;
  /** The record type it is for: 1 Subscription, 2 Trial, 3 Lifetime; null for the system default (every type). */
  alertSubsType: number | null;
}

/** Where an alert's reminders go: its channel code, its own address, and the owner's e-mail. */
export interface AlertContact {
  alert_type: number;
  alert_contact: string | null;
  email: string;
}

/** Statements on the alerts table that the unit of work does not write. */
export const alertRepository = {
  /** The timing of these definitions; a global one (the system default) reminds every record type. */
  definitions(em: StatementTarget, ids: number[]): Promise<ReminderDefinition[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return rowsOf<ReminderDefinition>(
      em,
      `select "id", "time_period" as "timePeriod", "time_cycle" as "timeCycle", "time", "timezone", "alert_condition" as "alertCondition",
        case when "user_id" is null then null else "alert_subs_type" end as "alertSubsType" from "alerts" where "id" = any(?::int[])`,
      [intArray(ids)],
    );
  },

  /** The alert's channels and addresses, if the user may use it (theirs, or global). */
  async contact(em: StatementTarget, alertId: number, userId: number): Promise<AlertContact | null> {
    const [row] = await rowsOf<AlertContact>(
      em,
      `select a."alert_type", a."alert_contact", u."email" from "alerts" a join "users" u on u."id" = ? where a."id" = ? and ${globalOrOwnSql('a."user_id"')}`,
      [userId, alertId, userId],
    );
    return row ?? null;
  },
};
