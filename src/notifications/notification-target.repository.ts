import type { RequiredEntityData } from '@mikro-orm/core';
import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { intArray } from '../platform/db/statements';
import { NotificationTarget } from './notification-target.entity';

/** The notification_targets table, and alert_targets: which targets an alert definition sends to. */
export class NotificationTargetRepository {
  constructor(private readonly db: DataSource) {}

  ofUser(userId: number): Promise<NotificationTarget[]> {
    return this.db.em().find(NotificationTarget, { user: userId }, { orderBy: { id: 'asc' } });
  }

  /** How many targets the user has (among `ids` only, when given). */
  count(userId: number, ids?: readonly number[]): Promise<number> {
    return this.db.em().count(NotificationTarget, { user: userId, ...(ids ? { id: { $in: [...ids] } } : {}) });
  }

  own(userId: number, id: number): Promise<NotificationTarget | null> {
    return this.db.em().findOne(NotificationTarget, { id, user: userId });
  }

  async create(fields: RequiredEntityData<NotificationTarget>): Promise<NotificationTarget> {
    return this.db.insert(NotificationTarget, fields);
  }

  /** Writes the changes of a target read in the same transaction. */
  async save(target: NotificationTarget): Promise<void> {
    await this.db.save(target);
  }

  /** Deletes the user's target; answers whether there was one. */
  async remove(userId: number, id: number): Promise<boolean> {
    return (await this.db.em().nativeDelete(NotificationTarget, { id, user: userId })) > 0;
  }

  /**
   * The user's targets a reminder of this alert goes to: those set on it (setAlertTargets), or with
   * `everyTarget` (alert_type 1, All) every target the user has.
   */
  async forAlert(userId: number, alertId: number, everyTarget: boolean): Promise<number[]> {
    const rows = await this.db.rows<{ id: number }>(
      sql`select t."id" from "notification_targets" t
        where t."user_id" = ${userId} and (${everyTarget}::boolean or exists (select 1 from "alert_targets" a where a."alert_id" = ${alertId} and a."target_id" = t."id"))
        order by t."id"`,
    );
    return rows.map((row) => row.id);
  }

  /** The ids of the user's targets set on the alert. */
  async ofAlert(userId: number, alertId: number): Promise<number[]> {
    const rows = await this.db.rows<{ id: number }>(
      sql`select a."target_id" as "id" from "alert_targets" a join "notification_targets" t on t."id" = a."target_id"
        where a."alert_id" = ${alertId} and t."user_id" = ${userId} order by a."target_id"`,
    );
    return rows.map((row) => row.id);
  }

  /** The user's own links of the alert become exactly these targets (other users' links to a global alert stay). */
  async replaceForAlert(userId: number, alertId: number, targetIds: readonly number[]): Promise<void> {
    await this.db.run(
      sql`with "gone" as (
         delete from "alert_targets" a using "notification_targets" t
          where a."target_id" = t."id" and a."alert_id" = ${alertId} and t."user_id" = ${userId} and not (a."target_id" = any(${intArray(targetIds)}::int[])))
       insert into "alert_targets" ("alert_id", "target_id") select ${alertId}, unnest(${intArray(targetIds)}::int[]) on conflict do nothing`,
    );
  }

  /** How many deliveries the user's target has had (its deliveries' connection counts them). */
  async deliveryCount(userId: number, targetId: number): Promise<number> {
    const row = await this.db.row<{ count: string }>(
      sql`select count(*) as "count" from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id"
        where d."target_id" = ${targetId} and e."user_id" = ${userId}`,
    );
    return Number(row!.count);
  }

  /** Whether any target exists: then the server needs NOTIFY_SECRET_KEY to start. */
  async any(): Promise<boolean> {
    const row = await this.db.row<{ found: boolean }>(
      sql`select exists (select 1 from "notification_targets") as "found"`,
    );
    return row!.found;
  }
}
