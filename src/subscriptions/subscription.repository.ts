import { LockMode, type MikroORM } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';

import type { Product } from '../catalogue/product.entity';
import type { DirectReads } from '../platform/db/direct-reads';
import {
  ambientTransaction,
  dueColumn,
  intArray,
  pooled,
  rowsOf,
  run,
  type StatementPart,
  type StatementTarget,
  withParts,
} from '../platform/db/statements';
import type { ScheduledRecord } from '../platform/reminder-scheduling';
import type { ReminderDefinition } from '../platform/reminder-scheduling';
import { Status } from './codes';
import { Subscription } from './subscription.entity';
import type { ListQuery } from './subscription.list';
import type { SubscriptionRow } from './subscription.record';
import {
  type AddonScope,
  changeReadSql,
  changeRecordsSql,
  EXPECT_CHANGED,
  insertRecordsSql,
  listQuerySql,
  PLANNED_PREVIEWS,
  recordSelect,
  REPLACE_TAGS,
  UPDATE_LINK_PLAN,
} from './subscription.sql';

export type { AddonScope };

export interface TagOfRecord {
  subscription_id: number;
  id: number;
  name: string;
}

/** The links a create or an update names, each null when it names none. */
export interface LinkPlanAsk {
  currency: string | null;
  productId: number | null;
  productName: string | null;
  folderId: number | null;
  categoryId: number | null;
  alertId: number | null;
  paymentModeId: number | null;
  tagIds: number[];
  tagNames: string[];
}

/** LINK_PLAN's answer. */
export interface LinkPlan {
  timezone: string;
  currency_known: boolean;
  product: Product | null;
  folder_found: boolean;
  category_found: boolean;
  alert_found: boolean;
  payment_mode_found: boolean;
  tags: Array<{ id: number; name: string }>;
  definitions: ReminderDefinition[];
}

/** A record as a change will leave it (changeRead), with what the change's write and its parts need. */
export interface ChangeRow extends SubscriptionRow {
  /** The stored row's version the write checks. */
  row_version: string;
  status_before: number;
  /** The columns the change lays over the stored row: what its write stores. */
  laid: RecordColumns;
  tags: Array<{ id: number; name: string }>;
  alert_ids: number[];
  definitions: ReminderDefinition[];
}

/** A record's stored columns by name, as the statements that take records as JSON have them. */
export type RecordColumns = Record<string, unknown>;

/** A new record's plan and, once every product of its batch is found, the columns it would store and its preview (PLANNED_PREVIEWS). */
export interface PlannedPreview {
  plan: LinkPlan;
  stored: RecordColumns | null;
  preview: SubscriptionRow | null;
}

/** What a record's reminders are computed from, and whether it is deleted. */
export interface SchedulingRow extends ScheduledRecord {
  deleted_at: string | null;
}

/**
 * The one door to the subscriptions table and its link tables (subscription_tags, subscription_alerts):
 * every statement on them is here. Reads outside a transaction go through named prepared statements.
 */
export class SubscriptionRepository {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly reads: DirectReads,
  ) {}

  /** Records by a where clause on `s`: on the transaction of the current unit of work (an inbound webhook's), else prepared on the pool. */
  private records(where: string, params: unknown[], em?: EntityManager): Promise<SubscriptionRow[]> {
    return this.rows<SubscriptionRow>(recordSelect(where), params, em);
  }

  /** Rows of a statement on `em` or the ambient transaction when there is one, else prepared on the pool. */
  private rows<T>(sql: string, params: unknown[], em?: EntityManager): Promise<T[]> {
    const current = em?.isInTransaction() ? em : ambientTransaction();
    return current ? rowsOf<T>(current, sql, params) : this.reads.rows<T>(sql, params);
  }

  async live(userId: number, id: number): Promise<SubscriptionRow | null> {
    const [row] = await this.records(`where s."id" = ? and s."user_id" = ? and s."deleted_at" is null`, [id, userId]);
    return row ?? null;
  }

  /** Every live record of the user (drafts and ended ones too), by id: an export's. */
  async allLive(userId: number): Promise<SubscriptionRow[]> {
    return this.records(`where s."user_id" = ? and s."deleted_at" is null order by s."id"`, [userId]);
  }

  /** The user's live records that are or were in force (Active, Cancel, Refund, Expired: not drafts), by id. */
  async inForce(userId: number): Promise<SubscriptionRow[]> {
    return this.records(
      `where s."user_id" = ? and s."deleted_at" is null and s."status" between 1 and 4 order by s."id"`,
      [userId],
    );
  }

  /** The user's first live record, by id. */
  async firstLive(userId: number): Promise<SubscriptionRow | null> {
    const [row] = await this.records(`where s."user_id" = ? and s."deleted_at" is null order by s."id" limit 1`, [
      userId,
    ]);
    return row ?? null;
  }

  /** A record whatever its state, on the transaction. */
  async anyById(em: EntityManager, id: number): Promise<SubscriptionRow | null> {
    const [row] = await this.records(`where s."id" = ?`, [id], em);
    return row ?? null;
  }

  /** The user's records of these ids as they stand inside the transaction, by id. */
  byIds(em: EntityManager, userId: number, ids: number[]): Promise<SubscriptionRow[]> {
    return rowsOf<SubscriptionRow>(
      em,
      recordSelect(`where s."id" = any(?::int[]) and s."user_id" = ?`, 'order by s."id"'),
      [intArray(ids), userId],
    );
  }

  page(userId: number, query: ListQuery): Promise<SubscriptionRow[]> {
    const { where, order, params } = listQuerySql(userId, query);
    return this.reads.rows<SubscriptionRow>(recordSelect(`${where} ${order} limit ? offset ?`, order), [
      ...params,
      query.length,
      query.start,
    ]);
  }

  /**
   * A page and how many records match in all, in one statement. Past the last record no row carries the
   * total, so it is counted apart (0 at once when the first page is empty).
   */
  async pageWithTotal(userId: number, query: ListQuery): Promise<{ rows: SubscriptionRow[]; total: number }> {
    const { where, order, params } = listQuerySql(userId, query);
    const rows = await this.reads.rows<SubscriptionRow & { total_count: string }>(
      recordSelect(`${where} ${order} limit ? offset ?`, order, { total: true, productSummary: true }),
      [...params, query.length, query.start],
    );
    if (rows.length > 0) return { rows, total: Number(rows[0].total_count) };
    return { rows, total: query.start === 0 ? 0 : await this.count(userId, query) };
  }

  async count(userId: number, query: ListQuery): Promise<number> {
    const { where, params } = listQuerySql(userId, query);
    const [row] = await this.reads.rows<{ n: string }>(
      `select count(*) as "n" from "subscriptions" s ${where}`,
      params,
    );
    return Number(row.n);
  }

  /**
   * The user's live Active records; `recurringOnly`, `anchoredBy` (payment_date on or before) and `dueBy`
   * (a stored next payment date on or before it, or none stored yet) narrow them.
   */
  active(
    userId: number,
    options: { recurringOnly?: boolean; anchoredBy?: string; dueBy?: string } = {},
  ): Promise<SubscriptionRow[]> {
    const conditions = [`s."user_id" = ?`, `s."deleted_at" is null`, `s."status" = ${Status.Active}`];
    const params: unknown[] = [userId];
    if (options.recurringOnly) conditions.push(`s."recurring" = 1`);
    if (options.dueBy !== undefined) {
      conditions.push(`(s."next_payment_date" is null or s."next_payment_date" <= ?)`);
      params.push(options.dueBy);
    }
    if (options.anchoredBy !== undefined) {
      conditions.push(`s."payment_date" <= ?`);
      params.push(options.anchoredBy);
    }
    return this.records(`where ${conditions.join(' and ')}`, params);
  }

  /** The owner's settings that money totals, "today" and the way dates are written depend on. */
  async ownerSettings(
    userId: number,
  ): Promise<{ timezone: string; baseCurrency: string; country: string } | undefined> {
    const [row] = await this.reads.rows<{ timezone: string; baseCurrency: string; country: string }>(
      `select "timezone", "base_currency" as "baseCurrency", "country" from "users" where "id" = ?`,
      [userId],
    );
    return row;
  }

  /**
   * What an update of record `recordId` that names links needs to know of the rows it links before it writes,
   * and whether the record is the user's (UPDATE_LINK_PLAN); null without the user.
   */
  async linkPlan(
    userId: number,
    ask: LinkPlanAsk,
    recordId: number,
  ): Promise<(LinkPlan & { record_found: boolean }) | null> {
    const [plan] = await this.rows<LinkPlan & { record_found: boolean }>(UPDATE_LINK_PLAN, [
      recordId,
      userId,
      ask.currency,
      ask.productId,
      userId,
      ask.productName,
      ask.folderId,
      ask.categoryId,
      userId,
      ask.alertId,
      userId,
      ask.paymentModeId,
      intArray(ask.tagIds),
      // As JSON: knex (on a transaction) and pg (on the pool) write a JS array differently.
      JSON.stringify(ask.tagNames),
      ask.alertId,
      userId,
    ]);
    return plan ?? null;
  }

  /**
   * New records planned and previewed in one read (PLANNED_PREVIEWS): the plan of each distinct ask, and each
   * record (the index of its ask, its own values) with its plan, the columns it would store and its preview,
   * in order; none without the user.
   */
  async plannedPreviews(
    userId: number,
    asks: readonly LinkPlanAsk[],
    records: ReadonlyArray<{ ask: number; values: Partial<Subscription> }>,
    defaultImage: string,
  ): Promise<PlannedPreview[]> {
    const rows = await this.rows<SubscriptionRow & { plan: LinkPlan; stored: RecordColumns | null }>(PLANNED_PREVIEWS, [
      JSON.stringify(asks),
      userId,
      userId,
      userId,
      userId,
      defaultImage,
      JSON.stringify(records.map(({ ask, values }) => [ask, this.columnsOf(values)])),
    ]);
    return rows.map(({ plan, stored, ...preview }) => ({ plan, stored, preview: stored ? preview : null }));
  }

  /**
   * Inserts records from their columns (each with its id), with their tags, the alerts kept beside
   * alert_id (positions from 1, as replaceExtraAlerts keeps them) and the other parts (events,
   * deliveries, reminders), as one statement: it commits whole or not at all, with no transaction around it
   * (unless the caller runs in one).
   */
  async insertNew(
    records: ReadonlyArray<{ columns: RecordColumns; tagIds: readonly number[]; extraAlertIds: readonly number[] }>,
    parts: readonly StatementPart[],
  ): Promise<{ due: boolean }> {
    const rows = records.map(({ columns }) => columns);
    const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    const tagLinks = records.flatMap(({ columns, tagIds }) => tagIds.map((tagId) => [columns.id, tagId]));
    const alertLinks = records.flatMap(({ columns, extraAlertIds }) =>
      extraAlertIds.map((alertId, index) => [columns.id, alertId, index + 1]),
    );
    const { sql, params } = withParts(
      [
        {
          sql: insertRecordsSql(names),
          params: [JSON.stringify(rows), JSON.stringify(tagLinks), JSON.stringify(alertLinks)],
        },
        ...parts,
      ],
      `select ${dueColumn(parts)}`,
    );
    const [{ due }] = await this.rows<{ due: boolean }>(sql, params);
    return { due };
  }

  /**
   * A live record of the user and the add-ons `addons` names, as they will read once `values` (after the
   * copies of `product`, when given) are stored on each; none when the user has no such live record. Inside a
   * transaction the rows are locked too.
   */
  changeRead(
    userId: number,
    id: number,
    addons: AddonScope,
    values: Partial<Subscription>,
    copied?: { product: Product; defaultImage: string },
  ): Promise<ChangeRow[]> {
    const transaction = ambientTransaction();
    const params = [JSON.stringify(this.columnsOf(values)), userId, id, id];
    if (copied) params.unshift(JSON.stringify(copied.product), copied.defaultImage);
    return this.rows<ChangeRow>(changeReadSql(addons, transaction !== undefined, copied !== undefined), params);
  }

  /**
   * Stores each record's changed columns (every object with the same keys) and the record's tags when given,
   * with the other parts (events, deliveries, reminders), as one statement: only when every row is still the
   * version read, else nothing at all and a serialization failure (40001) for the caller to read again.
   */
  async applyChange(
    changes: ReadonlyArray<{ id: number; version: string; columns: RecordColumns }>,
    tags: { id: number; tagIds: readonly number[] } | null,
    parts: readonly StatementPart[],
  ): Promise<{ due: boolean }> {
    const rows = changes.map((change) => ({ ...change.columns, id: change.id }));
    const versions = Object.fromEntries(changes.map((change) => [change.id, change.version]));
    const own: StatementPart[] = [
      {
        sql: changeRecordsSql(Object.keys(rows[0]).filter((column) => column !== 'id')),
        params: [JSON.stringify(rows), JSON.stringify(versions)],
      },
    ];
    if (tags) own.push({ sql: REPLACE_TAGS, params: [tags.id, intArray(tags.tagIds), tags.id, intArray(tags.tagIds)] });
    const { sql, params } = withParts([...own, ...parts], `${EXPECT_CHANGED}, ${dueColumn(parts)}`);
    const [{ due }] = await this.rows<{ due: boolean }>(sql, [...params, changes.length]);
    return { due };
  }

  /** Entity values under their column names (the metadata's), for statements that take a record as JSON. */
  private columnsOf(values: Partial<Subscription>): Record<string, unknown> {
    if (!this.columnNames) {
      const properties = this.orm.getMetadata().get(Subscription).properties as Record<
        string,
        { fieldNames: string[] }
      >;
      this.columnNames = new Map(
        Object.entries(properties).map(([property, { fieldNames }]) => [property, fieldNames?.[0]]),
      );
    }
    const columns: Record<string, unknown> = {};
    for (const property in values) columns[this.columnNames.get(property)!] = values[property as keyof Subscription];
    return columns;
  }

  /** Each entity property's column, from the metadata (read on first use: the ORM is ready by then). */
  private columnNames: Map<string, string> | null = null;

  /**
   * The caller's live record as an entity, locked for the rest of the transaction: concurrent writes to one
   * record take turns, and the second sees what the first did.
   */
  lockLive(em: EntityManager, userId: number, id: number): Promise<Subscription | null> {
    return em.findOne(Subscription, { id, user: userId, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  lockDeleted(em: EntityManager, userId: number, id: number): Promise<Subscription | null> {
    return em.findOne(
      Subscription,
      { id, user: userId, deletedAt: { $ne: null } },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
  }

  async addonIds(em: EntityManager, mainId: number, where: Record<string, unknown>): Promise<number[]> {
    const addons = await em.find(Subscription, { mainRecord: mainId, ...where }, { fields: ['id'] });
    return addons.map((addon) => addon.id);
  }

  async updateMany(
    em: EntityManager,
    ids: number[],
    fields: Partial<Pick<Subscription, 'status' | 'deletedAt'>>,
  ): Promise<void> {
    if (ids.length > 0) await em.nativeUpdate(Subscription, { id: { $in: ids } }, fields);
  }

  /** The alerts beside alert_id, in order (position 1 on). */
  async replaceExtraAlerts(em: EntityManager, id: number, alertIds: number[]): Promise<void> {
    await run(em, 'delete from "subscription_alerts" where "subscription_id" = ?', [id]);
    for (const [position, alertId] of alertIds.entries()) {
      await run(em, 'insert into "subscription_alerts" ("subscription_id", "alert_id", "position") values (?, ?, ?)', [
        id,
        alertId,
        position + 1,
      ]);
    }
  }

  /** Each record's alerts in order: alert_id first, then the others by position. */
  alertLinks(em: EntityManager, ids: readonly number[]): Promise<Array<{ subscription_id: number; alert_id: number }>> {
    return rowsOf(
      em,
      `select "id" as "subscription_id", "alert_id", 0 as "position" from "subscriptions" where "id" = any(?::int[]) and "alert_id" is not null
       union all select "subscription_id", "alert_id", "position" from "subscription_alerts" where "subscription_id" = any(?::int[])
       order by "subscription_id", "position"`,
      [intArray(ids), intArray(ids)],
    );
  }

  /** The records that use an alert definition, as their first alert or another one. */
  async usingAlert(em: EntityManager, alertId: number): Promise<number[]> {
    const rows = await rowsOf<{ id: number }>(
      em,
      `select "id" from "subscriptions" where "alert_id" = ? union select "subscription_id" from "subscription_alerts" where "alert_id" = ?`,
      [alertId, alertId],
    );
    return rows.map((row) => row.id);
  }

  /** The tags of these records, by name. */
  tagsOf(em: EntityManager, ids: readonly number[]): Promise<TagOfRecord[]> {
    return rowsOf<TagOfRecord>(
      em,
      `select st."subscription_id", t."id", t."name" from "subscription_tags" st join "tags" t on t."id" = st."tag_id"
        where st."subscription_id" = any(?::int[]) order by t."name"`,
      [intArray(ids)],
    );
  }

  /** What reminders are computed from, for these records. */
  schedulingRows(em: EntityManager, ids: number[]): Promise<SchedulingRow[]> {
    return rowsOf<SchedulingRow>(
      em,
      `select s."id", s."user_id", s."type", s."status", s."recurring", s."timezone", s."payment_date", s."billing_type",
              s."billing_cycle", s."billing_frequency", s."refund_days", s."expiry_date", s."contract_expiry", s."contract_notice_days", s."deleted_at",
              array(select s."alert_id" where s."alert_id" is not null union select sa."alert_id" from "subscription_alerts" sa where sa."subscription_id" = s."id") as "alert_ids"
         from "subscriptions" s where s."id" = any(?::int[])`,
      [intArray(ids)],
    );
  }

  /** Active records whose expiry_date has passed in their own zone at `now`, by owner. */
  dueForExpiry(now: Date, limit: number): Promise<Array<{ id: number; user_id: number }>> {
    return rowsOf(
      pooled(this.orm),
      `select "id", "user_id" from "subscriptions"
        where "status" = ${Status.Active} and "deleted_at" is null and "expiry_date" is not null
          and "expiry_date" < (cast(? as timestamptz) at time zone "timezone")::date
        order by "user_id", "id" limit ?`,
      [now.toISOString(), limit],
    );
  }

  /** Expires those of the records still Active (the status is checked again: a record changed meanwhile is left alone). */
  async expire(em: EntityManager, ids: number[], updatedAt: string): Promise<number[]> {
    const rows = await rowsOf<{ id: number }>(
      em,
      `update "subscriptions" set "status" = ${Status.Expired}, "updated_at" = ? where "id" = any(?::int[]) and "status" = ${Status.Active} returning "id"`,
      [updatedAt, intArray(ids)],
    );
    return rows.map((row) => row.id);
  }

  /**
   * The user's records that follow the user's zone `from` (none of their own) move to `to`; their ids. Their
   * stored next payment dates become unknown (another zone's "today" may come before the stored one).
   */
  async moveZone(em: EntityManager, userId: number, from: string, to: string): Promise<number[]> {
    const rows = await rowsOf<{ id: number }>(
      em,
      `update "subscriptions" set "timezone" = ?, "next_payment_date" = null where "user_id" = ? and "timezone" = ? returning "id"`,
      [to, userId, from],
    );
    return rows.map((row) => row.id);
  }

  /** Stores these records' next payment dates (the column that finds the records due in a window). */
  async storeNextPaymentDates(
    em: StatementTarget,
    dates: ReadonlyArray<{ id: number; next_payment_date: string | null }>,
  ): Promise<void> {
    if (dates.length === 0) return;
    await run(
      em,
      `update "subscriptions" s set "next_payment_date" = v."date"
         from jsonb_to_recordset(?::jsonb) as v("id" int, "date" date)
        where s."id" = v."id" and s."next_payment_date" is distinct from v."date"`,
      [JSON.stringify(dates.map((date) => ({ id: date.id, date: date.next_payment_date })))],
    );
  }

  /** Live Active recurring records whose stored next payment date has passed in their own zone at `now`, or was never stored. */
  staleNextPaymentDates(
    now: Date,
    limit: number,
  ): Promise<
    Array<
      Pick<
        SubscriptionRow,
        'id' | 'payment_date' | 'billing_type' | 'billing_cycle' | 'billing_frequency' | 'expiry_date' | 'timezone'
      >
    >
  > {
    // A null date with an expiry_date is not stale: no payment is left before the contract ends.
    return rowsOf(
      pooled(this.orm),
      `select "id", "payment_date", "billing_type", "billing_cycle", "billing_frequency", "expiry_date", "timezone" from "subscriptions"
        where "deleted_at" is null and "status" = ${Status.Active} and "recurring" = 1
          and (("next_payment_date" is null and "expiry_date" is null) or "next_payment_date" < (cast(? as timestamptz) at time zone "timezone")::date)
        order by "id" limit ?`,
      [now.toISOString(), limit],
    );
  }
}
