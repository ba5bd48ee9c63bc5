import type { AlertRepository } from '../alerts/alert.repository';
import type { HouseholdService } from '../households/household.service';
import type { Caller } from '../platform/caller';
import { AppError } from '../platform/errors';
import { moneyProblem } from '../subscriptions/subscription.input';
import type { SubscriptionService } from '../subscriptions/subscription.service';
import { NO_BUDGETS, type SpendingGrouping, type SpendingSummary, summarizeSpending } from './spending';
import type { BudgetRow, SpendingRepository } from './spending.repository';
import type { SpendingScope } from './spending.sql';

/** Which spending a summary reads (see SpendingScope). */
export interface SpendingView {
  kind: 'own' | 'myShare' | 'household';
  householdId?: number;
  memberId?: number;
}

/** Spending reports (planned, paid, against budgets) and the budgets themselves. */
export class SpendingService {
  constructor(
    private readonly repository: SpendingRepository,
    private readonly alerts: AlertRepository,
    private readonly subscriptions: SubscriptionService,
    private readonly households: HouseholdService,
  ) {}

  /**
   * Monthly, yearly and in-range totals in the caller's base currency: planned from the records, paid from the
   * ledger, with the caller's budgets (not for a household's totals). Of the caller's own records (`own`), what
   * they bear (`myShare`), or a household's shared records (`household`), whole or one member's share.
   */
  async summary(
    caller: Caller,
    grouping: SpendingGrouping,
    from?: string,
    to?: string,
    view: SpendingView = { kind: 'own' },
  ): Promise<SpendingSummary> {
    const [period, scope] = await Promise.all([
      this.subscriptions.reportPeriod(caller, from, to),
      this.scopeOf(caller, view),
    ]);
    const [sums, paid, budgets] = await Promise.all([
      this.repository.plannedSums(scope, caller.userId, grouping, period.from, period.to),
      this.repository.paidSums(scope, caller.userId, grouping, period.from, period.to),
      scope.kind === 'own' || scope.kind === 'myShare' ? this.repository.monthlyBudgets(caller.userId) : NO_BUDGETS,
    ]);
    return summarizeSpending({
      sums,
      paid,
      budgets,
      baseCurrency: period.baseCurrency,
      from: period.from,
      to: period.to,
      grouping,
    });
  }

  /** The scope a view reads, checked: a household's only for its members, a member only of that household. */
  private async scopeOf(caller: Caller, view: SpendingView): Promise<SpendingScope> {
    const { householdId, memberId } = view;
    if (view.kind !== 'household') {
      if (householdId !== undefined || memberId !== undefined)
        throw AppError.field('household_id', 'Only the HOUSEHOLD view names a household or member.');
      return { kind: view.kind, userId: caller.userId };
    }
    if (householdId === undefined) throw AppError.field('household_id', 'The HOUSEHOLD view needs a householdId.');
    const members = await this.households.members(caller, householdId);
    if (memberId === undefined) return { kind: 'household', householdId };
    if (!members.some((member) => member.id === memberId)) throw AppError.notFound('Household member');
    return { kind: 'member', householdId, memberId };
  }

  /** The currency the caller's totals and budgets are in. */
  async baseCurrency(caller: Caller): Promise<string> {
    return (await this.subscriptions.reportPeriod(caller)).baseCurrency;
  }

  budgets(caller: Caller): Promise<BudgetRow[]> {
    return this.repository.budgets(caller.userId);
  }

  /**
   * Sets the monthly budget in the base currency: overall without a category, else that category's (global or
   * the caller's); with an alert definition (global or the caller's), its channels warn when next month's
   * planned total exceeds it.
   */
  async setBudget(
    caller: Caller,
    budget: { amount: string; categoryId: number | null; alertId: number | null },
  ): Promise<BudgetRow> {
    const problem = moneyProblem('amount', budget.amount);
    if (problem) throw AppError.field('amount', problem);
    // An import's transaction, when it restores budgets, sees its own categories and alerts.
    if (budget.categoryId !== null && !(await this.repository.categoryVisible(caller.userId, budget.categoryId))) {
      throw AppError.field('category_id', 'The selected category_id does not exist.');
    }
    if (
      budget.alertId !== null &&
      (await this.alerts.usableDefinitions(caller.userId, [budget.alertId])).length === 0
    ) {
      throw AppError.field('alert_id', 'The selected alert_id does not exist.');
    }
    return this.repository.put(caller.userId, budget.categoryId, budget.amount, budget.alertId);
  }

  async removeBudget(caller: Caller, categoryId: number | null): Promise<void> {
    if (!(await this.repository.remove(caller.userId, categoryId))) throw AppError.notFound('Budget');
  }
}
