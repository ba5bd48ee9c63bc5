import { intArray, rowsOf, run, type StatementTarget } from '../platform/db/statements';

/** The statements on notification_targets and alert_targets that the unit of work does not write. */
export const notificationTargetRepository = {
  /**
   * The user's targets a reminder of this alert goes to: those set on it (setAlertTargets), or with
   * `everyTarget` (alert_type 1, All) every target the user has.
   */
  async forAlert(em: StatementTarget, userId: number, alertId: number, everyTarget: boolean): Promise<number[]> {
    const rows = await rowsOf<{ id: number }>(
      em,
      `select t."id" from "notification_targets" t
        where t."user_id" = ? and (?::boolean or exists (select 1 from "alert_targets" a where a."alert_id" = ? and a."target_id" = t."id"))
        order by t."id"`,
      [userId, everyTarget, alertId],
    );
    return rows.map((row) => row.id);
  },

  /** The ids of the user's targets set on the alert. */
  async ofAlert(em: StatementTarget, userId: number, alertId: number): Promise<number[]> {
    const rows = await rowsOf<{ id: number }>(
      em,
      `select a."target_id" as "id" from "alert_targets" a join "notification_targets" t on t."id" = a."target_id"
        where a."alert_id" = ? and t."user_id" = ? order by a."target_id"`,
      [alertId, userId],
    );
    return rows.map((row) => row.id);
  },

  /** The user's own links of the alert become exactly these targets (other users' links to a global alert stay). */
  async replaceForAlert(
    em: StatementTarget,
    userId: number,
    alertId: number,
    targetIds: readonly number[],
  ): Promise<void> {
    await run(
      em,
      `with "gone" as (
         delete from "alert_targets" a using "notification_targets" t
          where a."target_id" = t."id" and a."alert_id" = ? and t."user_id" = ? and not (a."target_id" = any(?::int[])))
       insert into "alert_targets" ("alert_id", "target_id") select ?, unnest(?::int[]) on conflict do nothing`,
      [alertId, userId, intArray(targetIds), alertId, intArray(targetIds)],
    );
  },

  /** Whether any target exists: then the server needs NOTIFY_SECRET_KEY to start. */
  async any(em: StatementTarget): Promise<boolean> {
    const [row] = await rowsOf<{ found: boolean }>(
      em,
      `select exists (select 1 from "notification_targets") as "found"`,
      [],
    );
    return row.found;
  },
};
