import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';

import type { Caller } from '../platform/caller';
import { AppError } from '../platform/errors';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { optionalIdOf, toGlobalId } from '../platform/graphql/global-ids';
import { money } from '../platform/graphql/money';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { LocalDateScalar } from '../platform/graphql/scalars';
import type { SpendingGroup } from './spending';
import type { BudgetRow } from './spending.repository';
import type { SpendingService } from './spending.service';
import {
  BudgetView,
  RemoveBudgetInput,
  SetBudgetInput,
  SpendingGroupBy,
  SpendingGroupView,
  SpendingSummaryView,
  SpendingViewKind,
} from './spending.types';

export const toBudgetView = (row: BudgetRow, currency: string): BudgetView => ({
  id: row.id,
  categoryId: row.category_id === null ? null : toGlobalId('ProductCategory', row.category_id),
  categoryName: row.category_name,
  amount: money(row.amount, currency),
  alertId: row.alert_id === null ? null : toGlobalId('Alert', row.alert_id),
  warnedMonth: row.warned_month,
});

/** `node(id:)` for a budget: one of the caller's. */
export const budgetLookup =
  (spending: SpendingService): NodeLookup =>
  async (caller, id) => {
    const [budgets, currency] = await Promise.all([spending.budgets(caller), spending.baseCurrency(caller)]);
    const row = budgets.find((budget) => budget.id === id);
    return row ? toBudgetView(row, currency) : null;
  };

/** The type of the rows a grouping's keys name by id ("0": none), for their global ids. */
const KEYED_BY_ID: Partial<Record<SpendingGroupBy, string>> = {
  [SpendingGroupBy.CATEGORY]: 'ProductCategory',
  [SpendingGroupBy.FOLDER]: 'Folder',
};

const SetBudgetPayload = MutationPayload('SetBudgetPayload', 'budget', () => BudgetView, 'The budget as now set.');
const RemoveBudgetPayload = MutationPayload(
  'RemoveBudgetPayload',
  'deletedBudgetId',
  () => ID,
  'The budget removed (its global id).',
);

@Resolver()
export class SpendingResolver {
  constructor(private readonly spending: SpendingService) {}

  @Query(() => SpendingSummaryView, {
    description: 'What your records cost and what you paid, in your base currency, over a range of days.',
  })
  async spendingSummary(
    @Arg('groupBy', () => SpendingGroupBy, {
      defaultValue: SpendingGroupBy.CATEGORY,
      description: 'What the groups are.',
    })
    groupBy: SpendingGroupBy,
    @Ctx() context: GraphQLContext,
    @Arg('from', () => LocalDateScalar, {
      nullable: true,
      description: 'The first day; left out, the first of the current month (in your time zone).',
    })
    from?: string,
    @Arg('to', () => LocalDateScalar, {
      nullable: true,
      description: 'The last day; left out, the last of the current month. At most 366 days after from.',
    })
    to?: string,
    @Arg('view', () => SpendingViewKind, { defaultValue: SpendingViewKind.OWN, description: 'Whose spending.' })
    view: SpendingViewKind = SpendingViewKind.OWN,
    @Arg('householdId', () => ID, {
      nullable: true,
      description: 'The household (HOUSEHOLD view only): one you belong to.',
    })
    householdId?: string | null,
    @Arg('memberId', () => ID, {
      nullable: true,
      description: "One member of that household (a HouseholdMember id): that member's share only.",
    })
    memberId?: string | null,
  ): Promise<SpendingSummaryView> {
    const summary = await this.spending.summary(requireCaller(context), groupBy, from ?? undefined, to ?? undefined, {
      kind: view,
      householdId: optionalIdOf(householdId, 'Household', 'householdId') ?? undefined,
      memberId: optionalIdOf(memberId, 'HouseholdMember', 'memberId') ?? undefined,
    });
    const base = summary.baseCurrency;
    const keyType = KEYED_BY_ID[groupBy];
    const groupView = (group: SpendingGroup): SpendingGroupView => ({
      key: keyType === undefined ? group.key : group.key === '0' ? 'NONE' : toGlobalId(keyType, group.key),
      label: group.label,
      count: group.count,
      monthlyTotal: money(group.monthlyTotal, base),
      yearlyTotal: money(group.yearlyTotal, base),
      periodTotal: money(group.periodTotal, base),
      plannedTotal: money(group.periodTotal, base),
      paidTotal: money(group.paidTotal, base),
      budget: money(group.budget, base),
    });
    return {
      baseCurrency: base,
      from: summary.from,
      to: summary.to,
      monthlyTotal: money(summary.monthlyTotal, base),
      yearlyTotal: money(summary.yearlyTotal, base),
      periodTotal: money(summary.periodTotal, base),
      plannedTotal: money(summary.periodTotal, base),
      paidTotal: money(summary.paidTotal, base),
      monthlyBudget: money(summary.monthlyBudget, base),
      budget: money(summary.budget, base),
      groups: summary.groups.map(groupView),
    };
  }

  @Query(() => [BudgetView], { description: 'Your monthly budgets: the overall one first, then per category.' })
  async budgets(@Ctx() context: GraphQLContext): Promise<BudgetView[]> {
    const caller = requireCaller(context);
    const [rows, currency] = await Promise.all([this.spending.budgets(caller), this.spending.baseCurrency(caller)]);
    return rows.map((row) => toBudgetView(row, currency));
  }

  @Mutation(() => SetBudgetPayload, {
    description: 'Sets a monthly budget (overall, or for a category), replacing the one there was.',
  })
  async setBudget(
    @Arg('input', () => SetBudgetInput, { description: 'The budget.' }) input: SetBudgetInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ budget: BudgetView }> {
    const caller = requireCaller(context);
    const row = await this.spending.setBudget(caller, {
      amount: input.amount,
      categoryId: optionalIdOf(input.categoryId, 'ProductCategory', 'categoryId') ?? null,
      alertId: optionalIdOf(input.alertId, 'Alert', 'alertId') ?? null,
    });
    return { budget: toBudgetView(row, await this.spending.baseCurrency(caller)) };
  }

  @Mutation(() => RemoveBudgetPayload, {
    description: "Removes the overall budget, or the category's when one is named.",
  })
  async removeBudget(
    @Arg('input', () => RemoveBudgetInput, { description: 'Which budget.' }) input: RemoveBudgetInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ deletedBudgetId: string }> {
    const caller = requireCaller(context);
    const categoryId = optionalIdOf(input.categoryId, 'ProductCategory', 'categoryId') ?? null;
    const removed = await this.budgetOf(caller, categoryId);
    await this.spending.removeBudget(caller, categoryId);
    return { deletedBudgetId: toGlobalId('Budget', removed.id) };
  }

  /** The caller's budget of a category (or the overall one); "not found" when there is none. */
  private async budgetOf(caller: Caller, categoryId: number | null): Promise<BudgetRow> {
    const row = (await this.spending.budgets(caller)).find((budget) => budget.category_id === categoryId);
    if (!row) throw AppError.notFound('Budget');
    return row;
  }
}
