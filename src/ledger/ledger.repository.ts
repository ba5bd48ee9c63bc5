import sql, { raw, type Sql } from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { Status } from '../subscriptions/codes';
import type { LedgerRecord, PlannedEntry } from './ledger-plan';
import type { EntryStatus } from './payment-entry.entity';

/** An entry as the ledger answers it, with its record's name. */
export interface EntryRow {
  id: number;
  subscription_id: number;
  product_name: string;
  due_date: string;
  expected_amount: string;
  currency: string;
  status: EntryStatus;
  paid_amount: string | null;
  paid_on: string | null;
  note: string | null;
  timezone: string;
}

/** A paid or skipped entry as an export carries it. */
export interface SettledEntry {
  subscription_id: number;
  due_date: string;
  expected_amount: string;
  currency: string;
  status: Exclude<EntryStatus, 'pending'>;
  paid_amount: string | null;
  paid_on: string | null;
  note: string | null;
}

export interface EntryFilter {
  from?: string;
  to?: string;
  subscriptionId?: number;
  status?: EntryStatus;
  /** Only the records shared in this household. */
  householdId?: number;
}

const ENTRY_COLUMNS = sql`e."id", e."subscription_id", s."product_name", e."due_date", e."expected_amount"::text as "expected_amount", e."currency",
       e."status", e."paid_amount"::text as "paid_amount", e."paid_on", e."note", s."timezone"`;

/** The Active status: a fixed code, written into the statements' text (no caller's value). */
const ACTIVE = raw(String(Status.Active));

/** The one door to payment_entries. */
export class LedgerRepository {
  constructor(private readonly db: DataSource) {}

  /** The user's live Active records, as their ledger is planned from. */
  activeRecords(userId: number): Promise<LedgerRecord[]> {
    return this.db.rows<LedgerRecord>(
      sql`select "id", "status", "recurring", "payment_date", "billing_type", "billing_cycle", "billing_frequency", "expiry_date", "timezone",
              "price"::text as "price", "price_type", "created_at"
         from "subscriptions" where "user_id" = ${userId} and "deleted_at" is null and "status" = ${ACTIVE}`,
    );
  }

  /**
   * Brings the user's ledger in line with its plan, in one statement: planned entries are made, pending ones
   * take their planned amount, and pending entries not yet due that the plan no longer holds (the record ended,
   * moved its dates or went) are removed. Paid, skipped and past entries stay as they are.
   */
  async reconcile(userId: number, planned: readonly PlannedEntry[], now: Date): Promise<void> {
    await this.db.run(
      sql`with "plan" as (
         select * from jsonb_to_recordset(${JSON.stringify(planned)}::jsonb) as p("subscription_id" int, "due_date" date, "expected_amount" numeric, "currency" text)),
       "dropped" as (
         delete from "payment_entries" e using "subscriptions" s
          where s."id" = e."subscription_id" and e."user_id" = ${userId} and e."status" = 'pending'
            and e."due_date" >= (cast(${now.toISOString()} as timestamptz) at time zone s."timezone")::date
            and not exists (select 1 from "plan" p where p."subscription_id" = e."subscription_id" and p."due_date" = e."due_date")),
       "kept" as (
         insert into "payment_entries" as e ("user_id", "subscription_id", "due_date", "expected_amount", "currency", "updated_at")
         select ${userId}, p."subscription_id", p."due_date", p."expected_amount", p."currency", now() at time zone 'utc' from "plan" p
         on conflict ("subscription_id", "due_date") do update set "expected_amount" = excluded."expected_amount", "currency" = excluded."currency", "updated_at" = excluded."updated_at"
          where e."status" = 'pending' and (e."expected_amount", e."currency") is distinct from (excluded."expected_amount", excluded."currency"))
       select 1`,
    );
  }

  /** Users with an Active record whose next payment is not in its ledger yet (a date rolled, or a new record): the sweep's. */
  async usersBehind(limit: number): Promise<number[]> {
    const rows = await this.db.rows<{ user_id: number }>(
      sql`select distinct s."user_id" from "subscriptions" s
        where s."deleted_at" is null and s."status" = ${ACTIVE} and s."next_payment_date" is not null
          and not exists (select 1 from "payment_entries" e where e."subscription_id" = s."id" and e."due_date" = s."next_payment_date")
        order by 1 limit ${limit}`,
    );
    return rows.map((row) => row.user_id);
  }

  list(userId: number, filter: EntryFilter, limit: number): Promise<EntryRow[]> {
    return this.db.rows<EntryRow>(
      sql`select ${ENTRY_COLUMNS} ${this.filtered(userId, filter)} order by e."due_date", e."id" limit ${limit}`,
    );
  }

  /** Entries `[offset, offset + limit)` of the user's filtered ledger (in `list`'s order), with how many it holds. */
  async page(
    userId: number,
    filter: EntryFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: EntryRow[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      limit === 0
        ? Promise.resolve([])
        : this.db.rows<EntryRow>(
            sql`select ${ENTRY_COLUMNS} ${this.filtered(userId, filter)} order by e."due_date", e."id" limit ${limit} offset ${offset}`,
          ),
      this.db.rows<{ total: number }>(sql`select count(*)::int as "total" ${this.filtered(userId, filter)}`),
    ]);
    return { rows, total: count?.total ?? 0 };
  }

  /** One of the user's entries (of a live record), or null. */
  async owned(userId: number, id: number): Promise<EntryRow | null> {
    const row = await this.db.row<EntryRow>(
      sql`select ${ENTRY_COLUMNS} from "payment_entries" e join "subscriptions" s on s."id" = e."subscription_id" and s."deleted_at" is null
        where e."id" = ${id} and e."user_id" = ${userId}`,
    );
    return row ?? null;
  }

  /** The from and where clauses of the user's entries (of live records) that pass the filter. */
  private filtered(userId: number, filter: EntryFilter): Sql {
    const from = filter.from ?? null;
    const to = filter.to ?? null;
    const subscriptionId = filter.subscriptionId ?? null;
    const status = filter.status ?? null;
    const householdId = filter.householdId ?? null;
    return sql`from "payment_entries" e join "subscriptions" s on s."id" = e."subscription_id" and s."deleted_at" is null
        where e."user_id" = ${userId} and e."due_date" >= coalesce(${from}::date, '-infinity') and e."due_date" <= coalesce(${to}::date, 'infinity')
          and (${subscriptionId}::int is null or e."subscription_id" = ${subscriptionId}::int) and (${status}::text is null or e."status" = ${status}::text)
          and (${householdId}::int is null or exists (select 1 from "subscription_shares" sh where sh."subscription_id" = e."subscription_id" and sh."household_id" = ${householdId}::int))`;
  }

  /** One of the user's entries (of a live record), locked for the rest of the transaction. */
  async lockOwned(userId: number, id: number): Promise<EntryRow | null> {
    const row = await this.db.row<EntryRow>(
      sql`select ${ENTRY_COLUMNS} from "payment_entries" e join "subscriptions" s on s."id" = e."subscription_id" and s."deleted_at" is null
        where e."id" = ${id} and e."user_id" = ${userId} for update of e`,
    );
    return row ?? null;
  }

  /** The user's paid and skipped entries (pending ones follow from the records), for an export. */
  settled(userId: number): Promise<EntryRow[]> {
    return this.db.rows<EntryRow>(
      sql`select ${ENTRY_COLUMNS} from "payment_entries" e join "subscriptions" s on s."id" = e."subscription_id" and s."deleted_at" is null
        where e."user_id" = ${userId} and e."status" <> 'pending' order by e."subscription_id", e."due_date"`,
    );
  }

  /** Imported entries of the user's records, written as they were (a planned entry of the same day takes their outcome). */
  async restore(userId: number, entries: readonly SettledEntry[]): Promise<void> {
    await this.db.run(
      sql`insert into "payment_entries" as e ("user_id", "subscription_id", "due_date", "expected_amount", "currency", "status", "paid_amount", "paid_on", "note", "updated_at")
       select s."user_id", s."id", v."due_date", v."expected_amount", v."currency", v."status", v."paid_amount", v."paid_on", v."note", now() at time zone 'utc'
         from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as v("subscription_id" int, "due_date" date, "expected_amount" numeric, "currency" text, "status" text,
                                                 "paid_amount" numeric, "paid_on" date, "note" text)
         join "subscriptions" s on s."id" = v."subscription_id" and s."user_id" = ${userId}
       on conflict ("subscription_id", "due_date") do update set "status" = excluded."status", "paid_amount" = excluded."paid_amount",
          "paid_on" = excluded."paid_on", "note" = excluded."note", "updated_at" = excluded."updated_at"`,
    );
  }

  /** The record an entry is of, or null. */
  async subscriptionOf(id: number): Promise<number | null> {
    const row = await this.db.row<{ subscription_id: number }>(
      sql`select "subscription_id" from "payment_entries" where "id" = ${id}`,
    );
    return row?.subscription_id ?? null;
  }

  /** Records what became of an entry. */
  async settle(
    id: number,
    outcome: { status: EntryStatus; paidAmount: string | null; paidOn: string | null; note: string | null },
  ): Promise<void> {
    await this.db.run(
      sql`update "payment_entries" set "status" = ${outcome.status}, "paid_amount" = ${outcome.paidAmount}::numeric, "paid_on" = ${outcome.paidOn}::date, "note" = ${outcome.note}, "updated_at" = now() at time zone 'utc' where "id" = ${id}`,
    );
  }
}
