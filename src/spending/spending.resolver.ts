import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { LocalDateScalar } from '../platform/graphql/scalars';
import type { BudgetRow } from './spending.repository';
import type { SpendingService } from './spending.service';
import { BudgetInput, BudgetView, SpendingGroupBy, SpendingSummaryView, SpendingViewKind } from './spending.types';

const toBudgetView = (row: BudgetRow): BudgetView => ({
  id: row.id,
  categoryId: row.category_id,
  categoryName: row.category_name,
  amount: row.amount,
  alertId: row.alert_id,
  warnedMonth: row.warned_month,
});

@Resolver()
export class SpendingResolver {
  constructor(private readonly spending: SpendingService) {}

  @Query(() => SpendingSummaryView)
  async spendingSummary(
    @Arg('groupBy', () => SpendingGroupBy, { defaultValue: SpendingGroupBy.CATEGORY }) groupBy: SpendingGroupBy,
    @Ctx() context: GraphQLContext,
    @Arg('from', () => LocalDateScalar, { nullable: true }) from?: string,
    @Arg('to', () => LocalDateScalar, { nullable: true }) to?: string,
    @Arg('view', () => SpendingViewKind, { defaultValue: SpendingViewKind.OWN })
    view: SpendingViewKind = SpendingViewKind.OWN,
    @Arg('householdId', () => Int, { nullable: true }) householdId?: number | null,
    @Arg('memberId', () => Int, { nullable: true }) memberId?: number | null,
  ): Promise<SpendingSummaryView> {
    const summary = await this.spending.summary(requireCaller(context), groupBy, from ?? undefined, to ?? undefined, {
      kind: view,
      householdId: householdId ?? undefined,
      memberId: memberId ?? undefined,
    });
    return {
      ...summary,
      plannedTotal: summary.periodTotal,
      groups: summary.groups.map((group) => ({ ...group, plannedTotal: group.periodTotal })),
    };
  }

  @Query(() => [BudgetView], { description: 'Your monthly budgets: the overall one first, then per category.' })
  async budgets(@Ctx() context: GraphQLContext): Promise<BudgetView[]> {
    return (await this.spending.budgets(requireCaller(context))).map(toBudgetView);
  }

  @Mutation(() => BudgetView, {
    description: 'Sets a monthly budget (overall, or for a category), replacing the one there was.',
  })
  async setBudget(
    @Arg('input', () => BudgetInput) input: BudgetInput,
    @Ctx() context: GraphQLContext,
  ): Promise<BudgetView> {
    return toBudgetView(
      await this.spending.setBudget(requireCaller(context), {
        amount: input.amount,
        categoryId: input.categoryId ?? null,
        alertId: input.alertId ?? null,
      }),
    );
  }

  @Mutation(() => Boolean, { description: "Removes the overall budget, or the category's when one is named." })
  async removeBudget(
    @Ctx() context: GraphQLContext,
    @Arg('categoryId', () => Int, { nullable: true }) categoryId?: number | null,
  ): Promise<boolean> {
    await this.spending.removeBudget(requireCaller(context), categoryId ?? null);
    return true;
  }
}
