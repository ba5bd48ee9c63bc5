import { globalOrOwnSql } from '../platform/caller';
import type { DirectReads } from '../platform/db/direct-reads';
import { rowsOf, type StatementTarget } from '../platform/db/statements';
import type { MonthlyBudgets, PaidSum, SpendingGrouping, SpendingSum } from './spending';
import { paidSumsSql, scopeParams, spendingSumsSql, type SpendingScope } from './spending.sql';

/** A budget as stored, with its category's name. */
export interface BudgetRow {
  id: number;
  category_id: number | null;
  category_name: string | null;
  amount: string;
}

const BUDGET_COLUMNS = `b."id", b."category_id", pc."name" as "category_name", b."amount"::text as "amount"`;

/** The one door to budgets, and the sums spending is made of (records as planned, the ledger as paid). */
export class SpendingRepository {
  constructor(private readonly reads: DirectReads) {}

  /** What the scope's live Active records cost, summed per group and billing kind (and by month, per month), in the viewer's base currency. */
  plannedSums(scope: SpendingScope, viewerId: number, grouping: SpendingGrouping, from: string, to: string): Promise<SpendingSum[]> {
    return this.reads.rows<SpendingSum>(spendingSumsSql(grouping, scope), [from, to, ...scopeParams(scope), viewerId]);
  }

  /** What was paid of the scope's records within [from, to], per group, in the viewer's base currency. */
  paidSums(scope: SpendingScope, viewerId: number, grouping: SpendingGrouping, from: string, to: string): Promise<PaidSum[]> {
    return this.reads.rows<PaidSum>(paidSumsSql(grouping, scope), [...scopeParams(scope), viewerId, from, to]);
  }

  /** The user's budgets: overall first, then by category id. */
  budgets(userId: number): Promise<BudgetRow[]> {
    return this.reads.rows<BudgetRow>(
      `select ${BUDGET_COLUMNS} from "budgets" b left join "product_categories" pc on pc."id" = b."category_id"
        where b."user_id" = ? order by b."category_id" nulls first`,
      [userId],
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
  async categoryVisible(em: StatementTarget, userId: number, categoryId: number): Promise<boolean> {
    const rows = await rowsOf(em, `select 1 from "product_categories" where "id" = ? and ${globalOrOwnSql('"user_id"')}`, [categoryId, userId]);
    return rows.length > 0;
  }

  /** Sets the user's budget (overall, or the category's), made or replaced. */
  async put(em: StatementTarget, userId: number, categoryId: number | null, amount: string): Promise<BudgetRow> {
    const [row] = await rowsOf<BudgetRow>(
      em,
      `with "saved" as (
         insert into "budgets" ("user_id", "category_id", "amount", "updated_at") values (?, ?, ?::numeric, now() at time zone 'utc')
         on conflict ("user_id", coalesce("category_id", 0)) do update set "amount" = excluded."amount", "updated_at" = excluded."updated_at"
         returning *)
       select ${BUDGET_COLUMNS} from "saved" b left join "product_categories" pc on pc."id" = b."category_id"`,
      [userId, categoryId, amount],
    );
    return row;
  }

  /** Removes the user's budget (overall, or the category's); whether there was one. */
  async remove(em: StatementTarget, userId: number, categoryId: number | null): Promise<boolean> {
    const rows = await rowsOf(em, `delete from "budgets" where "user_id" = ? and coalesce("category_id", 0) = coalesce(?::int, 0) returning "id"`, [
      userId,
      categoryId,
    ]);
    return rows.length > 0;
  }
}
