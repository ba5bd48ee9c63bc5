import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import type { DirectReads } from '../platform/db/direct-reads';
import { intArray } from '../platform/db/statements';
import type { MonthlyBudgets, PaidSum, SpendingGrouping, SpendingSum } from './spending';
import { paidSumsSql, type SpendingScope, spendingSumsSql } from './spending.sql';

/** A budget as stored, with its category's name. */
export interface BudgetRow {
  id: number;
  category_id: number | null;
  category_name: string | null;
  amount: string;
  alert_id: number | null;
  warned_month: string | null;
}

/** A budget whose warning for next month (in its owner's zone) has not gone: the sweep checks it. */
export interface BudgetToWarn extends BudgetRow {
  user_id: number;
  base_currency: string;
  /** Next month: YYYY-MM, and its first and last days. */
  month: string;
  month_from: string;
  month_to: string;
}

const BUDGET_COLUMNS = sql`b."id", b."category_id", pc."name" as "category_name", b."amount"::text as "amount", b."alert_id", b."warned_month"`;

/** The one door to budgets, and the sums spending is made of (records as planned, the ledger as paid). */
export class SpendingRepository {
  /** Reports read on the hot-read pool (outside any transaction); budgets are written through `db`. */
  constructor(
    private readonly db: DataSource,
    private readonly reads: DirectReads,
  ) {}

  /** What the scope's live Active records cost, summed per group and billing kind (and by month, per month), in the viewer's base currency. */
  plannedSums(
    scope: SpendingScope,
    viewerId: number,
    grouping: SpendingGrouping,
    from: string,
    to: string,
  ): Promise<SpendingSum[]> {
    return this.reads.rows<SpendingSum>(spendingSumsSql(grouping, scope, viewerId, from, to));
  }

  /** What was paid of the scope's records within [from, to], per group, in the viewer's base currency. */
  paidSums(
    scope: SpendingScope,
    viewerId: number,
    grouping: SpendingGrouping,
    from: string,
    to: string,
  ): Promise<PaidSum[]> {
    return this.reads.rows<PaidSum>(paidSumsSql(grouping, scope, viewerId, from, to));
  }

  /** The user's budgets: overall first, then by category id. */
  budgets(userId: number): Promise<BudgetRow[]> {
    return this.reads.rows<BudgetRow>(
      sql`select ${BUDGET_COLUMNS} from "budgets" b left join "product_categories" pc on pc."id" = b."category_id"
        where b."user_id" = ${userId} order by b."category_id" nulls first`,
    );
  }

  async monthlyBudgets(userId: number): Promise<MonthlyBudgets> {
    const rows = await this.budgets(userId);
    return {
      overall: rows.find((row) => row.category_id === null)?.amount ?? null,
      categories: rows
        .filter((row) => row.category_id !== null)
        .map((row) => ({ key: String(row.category_id), label: row.category_name ?? '', amount: row.amount })),
    };
  }

  /** Whether a category is the user's own or a global one. */
  async categoryVisible(userId: number, categoryId: number): Promise<boolean> {
    const rows = await this.db.rows(
      sql`select 1 from "product_categories" where "id" = ${categoryId} and ("user_id" is null or "user_id" = ${userId})`,
    );
    return rows.length > 0;
  }

  /** Sets the user's budget (overall, or the category's) and its warning's alert, made or replaced: a new month may be warned of again. */
  async put(userId: number, categoryId: number | null, amount: string, alertId: number | null): Promise<BudgetRow> {
    const [row] = await this.db.rows<BudgetRow>(
      sql`with "saved" as (
         insert into "budgets" ("user_id", "category_id", "amount", "alert_id", "updated_at") values (${userId}, ${categoryId}, ${amount}::numeric, ${alertId}, now() at time zone 'utc')
         on conflict ("user_id", coalesce("category_id", 0)) do update
           set "amount" = excluded."amount", "alert_id" = excluded."alert_id", "warned_month" = null, "checked_at" = null, "updated_at" = excluded."updated_at"
         returning *)
       select ${BUDGET_COLUMNS} from "saved" b left join "product_categories" pc on pc."id" = b."category_id"`,
    );
    return row;
  }

  /**
   * Budgets with a warning whose owner's next month (at `now`) has not been warned of and that were not checked
   * within the hour, the longest unchecked first (so a large installation is worked through over runs).
   */
  budgetsToWarn(now: Date, limit: number): Promise<BudgetToWarn[]> {
    return this.db.rows<BudgetToWarn>(
      sql`select ${BUDGET_COLUMNS}, b."user_id", u."base_currency", to_char(n."first", 'YYYY-MM') as "month",
              to_char(n."first", 'YYYY-MM-DD') as "month_from", to_char(n."first" + interval '1 month - 1 day', 'YYYY-MM-DD') as "month_to"
         from "budgets" b join "users" u on u."id" = b."user_id"
         cross join lateral (select date_trunc('month', cast(${now.toISOString()} as timestamptz) at time zone u."timezone") + interval '1 month' as "first") n
         left join "product_categories" pc on pc."id" = b."category_id"
        where b."alert_id" is not null and b."warned_month" is distinct from to_char(n."first", 'YYYY-MM')
          and (b."checked_at" is null or b."checked_at" < cast(${now.toISOString()} as timestamptz) at time zone 'utc' - interval '1 hour')
        order by b."checked_at" nulls first, b."user_id", b."id" limit ${limit}`,
    );
  }

  /** Notes when these budgets were compared with next month's plan. */
  async checked(ids: readonly number[], now: Date): Promise<void> {
    await this.db.run(
      sql`update "budgets" set "checked_at" = cast(${now.toISOString()} as timestamptz) at time zone 'utc' where "id" = any(${intArray(ids)}::int[])`,
    );
  }

  /** Marks a budget's month as warned of; false when it was already (another sweep got there first). */
  async claimWarning(budgetId: number, month: string): Promise<boolean> {
    const rows = await this.db.rows(
      sql`update "budgets" set "warned_month" = ${month} where "id" = ${budgetId} and "warned_month" is distinct from ${month} returning "id"`,
    );
    return rows.length > 0;
  }

  /** Removes the user's budget (overall, or the category's); whether there was one. */
  async remove(userId: number, categoryId: number | null): Promise<boolean> {
    const rows = await this.db.rows(
      sql`delete from "budgets" where "user_id" = ${userId} and coalesce("category_id", 0) = coalesce(${categoryId}::int, 0) returning "id"`,
    );
    return rows.length > 0;
  }
}
