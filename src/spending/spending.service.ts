import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Caller } from '../platform/caller';
import { pooled } from '../platform/db/statements';
import { AppError } from '../platform/errors';
import { moneyProblem } from '../subscriptions/subscription.input';
import type { SubscriptionService } from '../subscriptions/subscription.service';
import { summarizeSpending, type SpendingGrouping, type SpendingSummary } from './spending';
import type { BudgetRow, SpendingRepository } from './spending.repository';

/** Spending reports (planned, paid, against budgets) and the budgets themselves. */
export class SpendingService {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly repository: SpendingRepository,
    private readonly subscriptions: SubscriptionService,
  ) {}

  /** Monthly, yearly and in-range totals in the base currency: planned from the records, paid from the ledger, with the budgets. */
  async summary(caller: Caller, grouping: SpendingGrouping, from?: string, to?: string): Promise<SpendingSummary> {
    const period = await this.subscriptions.reportPeriod(caller, from, to);
    const [sums, paid, budgets] = await Promise.all([
      this.repository.plannedSums(caller.userId, grouping, period.from, period.to),
      this.repository.paidSums(caller.userId, grouping, period.from, period.to),
      this.repository.monthlyBudgets(caller.userId),
    ]);
    return summarizeSpending({ sums, paid, budgets, baseCurrency: period.baseCurrency, from: period.from, to: period.to, grouping });
  }

  budgets(caller: Caller): Promise<BudgetRow[]> {
    return this.repository.budgets(caller.userId);
  }

  /** Sets the monthly budget in the base currency: overall without a category, else that category's (global or the caller's). */
  async setBudget(caller: Caller, amount: string, categoryId: number | null): Promise<BudgetRow> {
    const problem = moneyProblem('amount', amount);
    if (problem) throw AppError.field('amount', problem);
    const em = pooled(this.orm);
    if (categoryId !== null && !(await this.repository.categoryVisible(em, caller.userId, categoryId))) {
      throw AppError.field('category_id', 'The selected category_id does not exist.');
    }
    return this.repository.put(em, caller.userId, categoryId, amount);
  }

  async removeBudget(caller: Caller, categoryId: number | null): Promise<void> {
    if (!(await this.repository.remove(pooled(this.orm), caller.userId, categoryId))) throw AppError.notFound('Budget');
  }
}
