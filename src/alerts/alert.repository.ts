import { globalOrOwnSql } from '../platform/caller';
import { intArray, rowsOf, type StatementTarget } from '../platform/db/statements';
import type { ReminderDefinition } from '../platform/reminder-scheduling';

/** Where an alert's reminders go: its channel code, its own address, and the owner's e-mail (and country, for dates). */
export interface AlertContact {
  alert_type: number;
  alert_contact: string | null;
  email: string;
  country: string;
}

/** A definition's timing under ReminderDefinition's names (a create's plan reads it too). */
export const DEFINITION_SELECT = `select "id", "time_period" as "timePeriod", "time_cycle" as "timeCycle", "time", "timezone", "alert_condition" as "alertCondition",
        case when "user_id" is null then null else "alert_subs_type" end as "alertSubsType" from "alerts"`;

export type { ReminderDefinition };

/** Statements on the alerts table that the unit of work does not write. */
export const alertRepository = {
  /** The timing of these definitions; a global one (the system default) reminds every record type. */
  definitions(em: StatementTarget, ids: number[]): Promise<ReminderDefinition[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return rowsOf<ReminderDefinition>(em, `${DEFINITION_SELECT} where "id" = any(?::int[])`, [intArray(ids)]);
  },

  /** The timing of those of these definitions the user may use (theirs, or global). */
  usableDefinitions(em: StatementTarget, userId: number, ids: number[]): Promise<ReminderDefinition[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return rowsOf<ReminderDefinition>(
      em,
      `${DEFINITION_SELECT} where "id" = any(?::int[]) and ${globalOrOwnSql('"user_id"')}`,
      [intArray(ids), userId],
    );
  },

  /** The alert's channels and addresses, if the user may use it (theirs, or global). */
  async contact(em: StatementTarget, alertId: number, userId: number): Promise<AlertContact | null> {
    const [row] = await rowsOf<AlertContact>(
      em,
      `select a."alert_type", a."alert_contact", u."email", u."country" from "alerts" a join "users" u on u."id" = ? where a."id" = ? and ${globalOrOwnSql('a."user_id"')}`,
      [userId, alertId, userId],
    );
    return row ?? null;
  },
};
