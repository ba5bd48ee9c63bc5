import sql, { join, raw, type Sql } from 'sql-template-tag';

import type { Product } from '../catalogue/product.entity';
import type { TokenCheckRow, UserSettings } from '../platform/caller';
import { addDays, todayIn } from '../platform/dates';
import type { DataSource } from '../platform/db/data-source';
import type { DirectReads } from '../platform/db/direct-reads';
import {
  ambientTransaction,
  dueColumn,
  intArray,
  type StatementPart,
  VARCHAR_AS_BYTES,
  withParts,
} from '../platform/db/statements';
import type { ReminderDefinition, ScheduledRecord } from '../platform/reminder-scheduling';
import { Status } from './codes';
import { derivedDatesSql } from './payment-dates.sql';
import { type RecordPageSelection, recordPageSql } from './record-page.sql';
import { type JsonArray, jsonArraySql, jsonTextPartsSql, recordJsonSql } from './record-shape.sql';
import { Subscription } from './subscription.entity';
import type { ListQuery } from './subscription.list';
import type { SubscriptionRow } from './subscription.record';
import {
  type AddonScope,
  changeReadSql,
  changeRecordsSql,
  expectChangedSql,
  insertRecordsSql,
  laidColumnsSql,
  listQuerySql,
  plannedPreviewsSql,
  recordSelect,
  replaceExtraAlertsSql,
  replaceTagsSql,
  updateLinkPlanSql,
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

/** A link plan's answer (the read of linkPlanSql). */
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

/** A new record's plan and, once every product of its batch is found, the columns it would store and its preview (plannedPreviewsSql). */
export interface PlannedPreview {
  plan: LinkPlan;
  stored: RecordColumns | null;
  preview: SubscriptionRow | null;
}

/** What a record's reminders are computed from, and whether it is deleted. */
export interface SchedulingRow extends ScheduledRecord {
  deleted_at: string | null;
}

/** What a record's reminders are computed from (SchedulingRow), over `subscriptions s`. */
const SCHEDULING_SELECT =
  raw(`select s."id", s."user_id", s."type", s."status", s."recurring", s."timezone", s."payment_date",
       s."billing_type", s."billing_cycle", s."billing_frequency", s."refund_days", s."expiry_date", s."contract_expiry",
       s."contract_notice_days", s."deleted_at",
       array(select s."alert_id" where s."alert_id" is not null
             union select sa."alert_id" from "subscription_alerts" sa where sa."subscription_id" = s."id") as "alert_ids"
  from "subscriptions" s`);

/**
 * The one door to the subscriptions table and its link tables (subscription_tags, subscription_alerts):
 * every statement on them is here. Reads outside a transaction go through named prepared statements.
 */
export class SubscriptionRepository {
  constructor(
    private readonly db: DataSource,
    private readonly reads: DirectReads,
  ) {}

  /** Rows of a statement on the ambient transaction when there is one (an import's, a webhook's), else prepared on the pool. */
  private rows<T>(query: Sql): Promise<T[]> {
    return ambientTransaction() ? this.db.rows<T>(query) : this.reads.rows<T>(query);
  }

  /** As rows(), for a statement that writes (see DirectReads.writeRows). */
  private writeRows<T>(query: Sql): Promise<T[]> {
    return ambientTransaction() ? this.db.rows<T>(query) : this.reads.writeRows<T>(query);
  }

  private records(filter: Sql, order?: Sql): Promise<SubscriptionRow[]> {
    return this.rows<SubscriptionRow>(recordSelect(filter, order));
  }

  async live(userId: number, id: number): Promise<SubscriptionRow | null> {
    const [row] = await this.records(sql`where s."id" = ${id} and s."user_id" = ${userId} and s."deleted_at" is null`);
    return row ?? null;
  }

  /**
   * Shows `logoHash` (a Logo's; null: none of its own) on the user's live record `id`: the logo it showed
   * before (`previous`), or null when the user has no such record.
   */
  async setLogo(userId: number, id: number, logoHash: string | null): Promise<{ previous: string | null } | null> {
    const [row] = await this.db.rows<{ previous: string | null }>(
      sql`with "old" as (select "id", "logo_hash" from "subscriptions"
             where "id" = ${id} and "user_id" = ${userId} and "deleted_at" is null for update)
          update "subscriptions" s set "logo_hash" = ${logoHash} from "old" where s."id" = "old"."id"
          returning "old"."logo_hash" as "previous"`,
    );
    return row ?? null;
  }

  /** Every live record of the user (drafts and ended ones too), by id: an export's. */
  allLive(userId: number): Promise<SubscriptionRow[]> {
    return this.records(sql`where s."user_id" = ${userId} and s."deleted_at" is null order by s."id"`);
  }

  /** The user's live records that are or were in force (Active, Cancel, Refund, Expired: not drafts), by id. */
  inForce(userId: number): Promise<SubscriptionRow[]> {
    return this.records(
      sql`where s."user_id" = ${userId} and s."deleted_at" is null and s."status" between 1 and 4 order by s."id"`,
    );
  }

  /** The user's first live record, by id. */
  async firstLive(userId: number): Promise<SubscriptionRow | null> {
    const [row] = await this.records(
      sql`where s."user_id" = ${userId} and s."deleted_at" is null order by s."id" limit 1`,
    );
    return row ?? null;
  }

  /** A record whatever its state. */
  async anyById(id: number): Promise<SubscriptionRow | null> {
    const [row] = await this.records(sql`where s."id" = ${id}`);
    return row ?? null;
  }

  /** The user's records of these ids, by id. */
  byIds(userId: number, ids: readonly number[]): Promise<SubscriptionRow[]> {
    return this.records(
      sql`where s."id" = any(${intArray(ids)}::int[]) and s."user_id" = ${userId}`,
      raw('order by s."id"'),
    );
  }

  /**
   * A page and how many records match in all, in one statement. Past the last record no row carries the
   * total, so it is counted apart (0 at once when the first page is empty).
   */
  async pageWithTotal(userId: number, query: ListQuery): Promise<{ rows: SubscriptionRow[]; total: number }> {
    const { where, order } = listQuerySql(userId, query);
    const rows = await this.reads.rows<SubscriptionRow & { total_count: string }>(
      recordSelect(sql`${where} ${order} limit ${query.length} offset ${query.start}`, order, {
        total: true,
        productSummary: true,
      }),
    );
    if (rows.length > 0) return { rows, total: Number(rows[0].total_count) };
    return { rows, total: query.start === 0 ? 0 : await this.count(userId, query) };
  }

  async count(userId: number, query: ListQuery): Promise<number> {
    const { where } = listQuerySql(userId, query);
    const [row] = await this.reads.rows<{ n: string }>(sql`select count(*) as "n" from "subscriptions" s ${where}`);
    return Number(row.n);
  }

  /**
   * A page of the user's records as the list's items, each its JSON text made by the database at `now`; with
   * `tokenCheck` (the caller's, see PendingTokenCheck) run in the same statement.
   */
  pageJson(userId: number, query: ListQuery, now: Date, tokenCheck?: Sql): Promise<CheckedJsonArray> {
    const { where, order } = listQuerySql(userId, query);
    const page = recordSelect(sql`${where} ${order} limit ${query.length} offset ${query.start}`);
    return this.jsonArray(recordJsonSql(page, 'listItem', now, { order }), tokenCheck);
  }

  /**
   * A page of the user's records as a compiled GraphQL selection writes it (see record-page.sql.ts) at `now`;
   * with `tokenCheck` (the caller's, see PendingTokenCheck) run in the same statement: then undefined when the
   * token is not live.
   */
  async pageAnswer(
    userId: number,
    selection: RecordPageSelection,
    query: ListQuery,
    now: Date,
    tokenCheck?: Sql,
  ): Promise<{ json: Buffer[]; check?: TokenCheckRow } | undefined> {
    const rows = await this.reads.rows<{ json: Buffer } & Partial<TokenCheckRow>>(
      jsonTextPartsSql(recordPageSql(userId, selection, query, now), tokenCheck),
      VARCHAR_AS_BYTES,
    );
    const [first] = rows;
    return first && { json: rows.map((row) => row.json), check: tokenCheck ? checkRowOf(first) : undefined };
  }

  /**
   * The user's live Active records; `recurringOnly`, `anchoredBy` (payment_date on or before) and `dueBy`
   * (a stored next payment date on or before it, or none stored yet) narrow them.
   */
  active(userId: number, options: ActiveAsk = {}): Promise<SubscriptionRow[]> {
    return this.records(activeFilter(userId, options));
  }

  /** The user's upcoming payments at `now` within `days` days (see upcomingSql), as rows. */
  upcoming(userId: number, days: number, now: Date): Promise<SubscriptionRow[]> {
    const { records, where, order } = upcomingSql(userId, days, now);
    return this.reads.rows<SubscriptionRow>(
      sql`select s.* from (${records}) s ${derivedDatesSql(now)} ${where} ${order}`,
    );
  }

  /** The user's upcoming payments at `now` within `days` days (see upcomingSql), each its JSON text made by the database. */
  upcomingJson(userId: number, days: number, now: Date, tokenCheck?: Sql): Promise<CheckedJsonArray> {
    const { records, where, order } = upcomingSql(userId, days, now);
    return this.jsonArray(recordJsonSql(records, 'record', now, { where, order }), tokenCheck);
  }

  /** The records of a recordJsonSql statement as one JSON array, after the caller's token check when one is given. */
  private async jsonArray(records: Sql, tokenCheck?: Sql): Promise<CheckedJsonArray> {
    const rows = await this.reads.rows<{ json: Buffer | null; count: number | null } & Partial<TokenCheckRow>>(
      jsonArraySql(records, tokenCheck),
      VARCHAR_AS_BYTES,
    );
    const parts = rows.flatMap((row) => (row.json === null ? [] : [row.json]));
    const count = rows.reduce((sum, row) => sum + (row.count ?? 0), 0);
    if (!tokenCheck) return { parts, count };
    const [first] = rows;
    return { parts, count, check: first && checkRowOf(first) };
  }

  /** The owner's settings that money totals, "today" and the way dates are written depend on. */
  async ownerSettings(userId: number): Promise<UserSettings | undefined> {
    const [row] = await this.reads.rows<UserSettings>(
      sql`select "timezone", "base_currency" as "baseCurrency", "country" from "users" where "id" = ${userId}`,
    );
    return row;
  }

  /**
   * What an update of record `recordId` that names links needs to know of the rows it links before it writes,
   * and whether the record is the user's; null without the user.
   */
  async linkPlan(
    userId: number,
    ask: LinkPlanAsk,
    recordId: number,
  ): Promise<(LinkPlan & { record_found: boolean }) | null> {
    const [plan] = await this.rows<LinkPlan & { record_found: boolean }>(updateLinkPlanSql(userId, recordId, ask));
    return plan ?? null;
  }

  /**
   * New records planned and previewed in one read: the plan of each distinct ask, and each record (the index
   * of its ask, its own values) with its plan, the columns it would store and its preview, in order; none
   * without the user.
   */
  async plannedPreviews(
    userId: number,
    asks: readonly LinkPlanAsk[],
    records: ReadonlyArray<{ ask: number; values: Partial<Subscription> }>,
    defaultImage: string,
  ): Promise<PlannedPreview[]> {
    const columns = records.map(({ ask, values }): [number, RecordColumns] => [ask, this.columnsOf(values)]);
    const rows = await this.rows<SubscriptionRow & { plan: LinkPlan; stored: RecordColumns | null }>(
      plannedPreviewsSql(userId, asks, columns, defaultImage),
    );
    return rows.map(({ plan, stored, ...preview }) => ({ plan, stored, preview: stored ? preview : null }));
  }

  /**
   * Inserts records from their columns (each with its id), with their tags, the alerts kept beside
   * alert_id (positions from 1) and the other parts (events, deliveries, reminders), as one statement: it
   * commits whole or not at all, with no transaction around it (unless the caller runs in one).
   */
  async insertNew(
    records: ReadonlyArray<{ columns: RecordColumns; tagIds: readonly number[]; extraAlertIds: readonly number[] }>,
    parts: readonly StatementPart[],
  ): Promise<{ due: boolean }> {
    const tagLinks = records.flatMap(({ columns, tagIds }) => tagIds.map((tagId) => [columns.id as number, tagId]));
    const alertLinks = records.flatMap(({ columns, extraAlertIds }) =>
      extraAlertIds.map((alertId, index) => [columns.id as number, alertId, index + 1]),
    );
    const inserted = insertRecordsSql(
      records.map(({ columns }) => columns),
      tagLinks,
      alertLinks,
    );
    const [{ due }] = await this.writeRows<{ due: boolean }>(
      withParts([{ sql: inserted }, ...parts], sql`select ${dueColumn(parts)}`),
    );
    return { due };
  }

  /**
   * A record of the user and the add-ons `addons` names, as they will read once `values` (after the copies of
   * `product`, when given) are stored on each; none when the user has no such record (a live one, or for
   * 'deletedWith' a deleted one). Inside a transaction the rows are locked too.
   */
  changeRead(
    userId: number,
    id: number,
    addons: AddonScope,
    values: Partial<Subscription>,
    copied?: { product: Product; defaultImage: string },
  ): Promise<ChangeRow[]> {
    const laid = laidColumnsSql(this.columnsOf(values), copied);
    return this.rows<ChangeRow>(changeReadSql({ userId, id, addons, laid, lock: ambientTransaction() !== undefined }));
  }

  /**
   * Stores each record's changed columns (every object with the same keys), the main record's tags and the
   * alerts beside its alert_id when given, with the other parts (events, deliveries, reminders), as one
   * statement: only when every row is still the version read, else nothing at all and a serialization
   * failure (40001) for the caller to read again.
   */
  async applyChange(
    changes: ReadonlyArray<{ id: number; version: string; columns: RecordColumns }>,
    links: { id: number; tagIds?: readonly number[]; extraAlertIds?: readonly number[] } | null,
    parts: readonly StatementPart[],
  ): Promise<{ due: boolean }> {
    const rows = changes.map((change) => ({ ...change.columns, id: change.id }));
    const versions = Object.fromEntries(changes.map((change) => [change.id, change.version]));
    const own: StatementPart[] = [{ sql: changeRecordsSql(rows, versions) }];
    if (links?.tagIds) own.push({ sql: replaceTagsSql(links.id, links.tagIds) });
    if (links?.extraAlertIds) own.push({ sql: replaceExtraAlertsSql(links.id, links.extraAlertIds) });
    const [{ due }] = await this.writeRows<{ due: boolean }>(
      withParts([...own, ...parts], sql`${expectChangedSql(changes.length)}, ${dueColumn(parts)}`),
    );
    return { due };
  }

  /** Entity values under their column names (the metadata's), for statements that take a record as JSON. */
  private columnsOf(values: Partial<Subscription>): Record<string, unknown> {
    if (!this.columnNames) {
      const properties = this.db.orm.getMetadata().get(Subscription).properties as Record<
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

  /** Each record's alerts in order: alert_id first, then the others by position. */
  alertLinks(ids: readonly number[]): Promise<Array<{ subscription_id: number; alert_id: number }>> {
    const records = intArray(ids);
    return this.db.rows(
      sql`select "id" as "subscription_id", "alert_id", 0 as "position" from "subscriptions"
           where "id" = any(${records}::int[]) and "alert_id" is not null
          union all
          select "subscription_id", "alert_id", "position" from "subscription_alerts"
           where "subscription_id" = any(${records}::int[])
          order by "subscription_id", "position"`,
    );
  }

  /** The records that use an alert definition, as their first alert or another one. */
  async usingAlert(alertId: number): Promise<number[]> {
    const rows = await this.db.rows<{ id: number }>(
      sql`select "id" from "subscriptions" where "alert_id" = ${alertId}
          union select "subscription_id" from "subscription_alerts" where "alert_id" = ${alertId}`,
    );
    return rows.map((row) => row.id);
  }

  /** The tags of these records, by name. */
  tagsOf(ids: readonly number[]): Promise<TagOfRecord[]> {
    return this.db.rows<TagOfRecord>(
      sql`select st."subscription_id", t."id", t."name" from "subscription_tags" st join "tags" t on t."id" = st."tag_id"
           where st."subscription_id" = any(${intArray(ids)}::int[]) order by t."name"`,
    );
  }

  /** What reminders are computed from, for these records. */
  schedulingRows(ids: readonly number[]): Promise<SchedulingRow[]> {
    return this.db.rows<SchedulingRow>(sql`${SCHEDULING_SELECT} where s."id" = any(${intArray(ids)}::int[])`);
  }

  /** Active records whose expiry_date has passed in their own zone at `now`, by owner. */
  dueForExpiry(now: Date, limit: number): Promise<Array<{ id: number; user_id: number }>> {
    return this.db.rows(
      sql`select "id", "user_id" from "subscriptions"
           where "status" = ${Status.Active} and "deleted_at" is null and "expiry_date" is not null
             and "expiry_date" < (cast(${now.toISOString()} as timestamptz) at time zone "timezone")::date
           order by "user_id", "id" limit ${limit}`,
    );
  }

  /**
   * The user's records that follow the user's zone `from` (none of their own) move to `to`; their ids. Their
   * stored next payment dates become unknown (another zone's "today" may come before the stored one).
   */
  async moveZone(userId: number, from: string, to: string): Promise<number[]> {
    const rows = await this.db.rows<{ id: number }>(
      sql`update "subscriptions" set "timezone" = ${to}, "next_payment_date" = null
           where "user_id" = ${userId} and "timezone" = ${from} returning "id"`,
    );
    return rows.map((row) => row.id);
  }

  /** These records' next payment dates stored (the column that finds the records due in a window), as a part of a statement. */
  nextPaymentDatesPart(dates: ReadonlyArray<{ id: number; next_payment_date: string | null }>): StatementPart {
    const values = JSON.stringify(dates.map((date) => ({ id: date.id, date: date.next_payment_date })));
    return {
      sql: sql`"next_dates" as (
         update "subscriptions" s set "next_payment_date" = v."date"
           from jsonb_to_recordset(${values}::jsonb) as v("id" int, "date" date)
          where s."id" = v."id" and s."next_payment_date" is distinct from v."date")`,
    };
  }

  /** Live Active recurring records whose stored next payment date has passed in their own zone at `now`, or was never stored. */
  staleNextPaymentDates(now: Date, limit: number): Promise<SchedulingRow[]> {
    // A null date with an expiry_date is not stale: no payment is left before the contract ends.
    return this.db.rows(
      sql`${SCHEDULING_SELECT}
           where s."deleted_at" is null and s."status" = ${Status.Active} and s."recurring" = 1
             and ((s."next_payment_date" is null and s."expiry_date" is null)
                  or s."next_payment_date" < (cast(${now.toISOString()} as timestamptz) at time zone s."timezone")::date)
           order by s."id" limit ${limit}`,
    );
  }
}

/** The token check's part of a row of a statement that ran it (see checkedSql). */
function checkRowOf(row: Partial<TokenCheckRow>): TokenCheckRow {
  return { data_version: row.data_version!, renew: row.renew! };
}

/** A JSON array of records, and the caller's token check's row when the read ran one and the token is live. */
export interface CheckedJsonArray extends JsonArray {
  check?: TokenCheckRow;
}

/**
 * Upcoming's read: the user's Active recurring records whose next payment at `now` falls within `days` days of
 * the record's today (over the records `s` and their derived dates `d`), soonest first.
 */
function upcomingSql(userId: number, days: number, now: Date): { records: Sql; where: Sql; order: Sql } {
  // The stored dates find the candidates; every zone's "today" is within a day of UTC's.
  const candidates = activeFilter(userId, { recurringOnly: true, dueBy: addDays(todayIn('UTC', now), days + 1) });
  return {
    records: recordSelect(candidates),
    where: sql`where d."next_payment_date" <= d."today" + ${days}::int`,
    order: raw('order by d."next_payment_date", s."id"'),
  };
}

/** What `active` narrows the user's live Active records by. */
interface ActiveAsk {
  recurringOnly?: boolean;
  anchoredBy?: string;
  dueBy?: string;
}

function activeFilter(userId: number, options: ActiveAsk): Sql {
  const conditions = [sql`s."user_id" = ${userId}`, sql`s."deleted_at" is null`, raw(`s."status" = ${Status.Active}`)];
  if (options.recurringOnly) conditions.push(sql`s."recurring" = 1`);
  if (options.dueBy !== undefined) {
    conditions.push(sql`(s."next_payment_date" is null or s."next_payment_date" <= ${options.dueBy})`);
  }
  if (options.anchoredBy !== undefined) conditions.push(sql`s."payment_date" <= ${options.anchoredBy}`);
  return sql`where ${join(conditions, ' and ')}`;
}
