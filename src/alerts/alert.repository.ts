import { LockMode, type RequiredEntityData } from '@mikro-orm/core';
import sql, { raw } from 'sql-template-tag';

import { globalOrOwn, globalOrOwnSql } from '../platform/caller';
import type { DataSource } from '../platform/db/data-source';
import { intArray } from '../platform/db/statements';
import { escapeLike } from '../platform/objects';
import type { ReminderDefinition } from '../platform/reminder-scheduling';
import { Alert } from './alert.entity';

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

/** A page of alerts: a name search, an order over entity properties, offset paging. */
export interface AlertPage {
  q?: string;
  orderBy: Array<Record<string, 'asc' | 'desc'>>;
  offset: number;
  limit: number;
}

/** The alerts table: the definitions users keep, and the timing and contacts reminders are sent by. */
export class AlertRepository {
  constructor(private readonly db: DataSource) {}

  /** The user's alerts and the global ones. */
  page(userId: number, page: AlertPage): Promise<Alert[]> {
    return this.db
      .em()
      .find(
        Alert,
        { ...globalOrOwn(userId), ...(page.q ? { alertName: { $ilike: `%${escapeLike(page.q)}%` } } : {}) },
        { orderBy: page.orderBy, offset: page.offset, limit: page.limit },
      );
  }

  /** The alert if the user may use it (theirs, or global). */
  visible(userId: number, id: number): Promise<Alert | null> {
    return this.db.em().findOne(Alert, { id, ...globalOrOwn(userId) });
  }

  /** The user's own alert, locked against concurrent writers when `lock` (inside a transaction). */
  own(userId: number, id: number, lock = false): Promise<Alert | null> {
    return this.db.em().findOne(Alert, { id, user: userId }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  }

  async create(fields: RequiredEntityData<Alert>): Promise<Alert> {
    return this.db.insert(Alert, fields);
  }

  /** Writes the changes of an alert read in the same transaction. */
  async save(alert: Alert): Promise<void> {
    await this.db.save(alert);
  }

  /** Deletes an alert read in the same transaction. */
  async remove(alert: Alert): Promise<void> {
    await this.db.delete(alert);
  }

  /** Alerts by id (a page's records' alerts, for GraphQL). */
  byIds(ids: readonly number[]): Promise<Alert[]> {
    return this.db.em().find(Alert, { id: { $in: [...ids] } });
  }

  /** The timing of these definitions; a global one (the system default) reminds every record type. */
  async definitions(ids: number[]): Promise<ReminderDefinition[]> {
    if (ids.length === 0) return [];
    return this.db.rows<ReminderDefinition>(sql`${raw(DEFINITION_SELECT)} where "id" = any(${intArray(ids)}::int[])`);
  }

  /** The timing of those of these definitions the user may use (theirs, or global). */
  async usableDefinitions(userId: number, ids: number[]): Promise<ReminderDefinition[]> {
    if (ids.length === 0) return [];
    return this.db.rows<ReminderDefinition>(
      sql`${raw(DEFINITION_SELECT)} where "id" = any(${intArray(ids)}::int[]) and ${globalOrOwnSql('"user_id"', userId)}`,
    );
  }

  /** The alert's channels and addresses, if the user may use it (theirs, or global). */
  async contact(alertId: number, userId: number): Promise<AlertContact | null> {
    const row = await this.db.row<AlertContact>(
      sql`select a."alert_type", a."alert_contact", u."email", u."country" from "alerts" a join "users" u on u."id" = ${userId} where a."id" = ${alertId} and ${globalOrOwnSql('a."user_id"', userId)}`,
    );
    return row ?? null;
  }
}
