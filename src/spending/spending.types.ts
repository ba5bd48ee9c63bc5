import { CurrencyResolver } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

import { LocalDateScalar } from '../platform/graphql/scalars';

/** What spending is grouped by. */
export enum SpendingGroupBy {
  CATEGORY = 'CATEGORY',
  FOLDER = 'FOLDER',
  CURRENCY = 'CURRENCY',
  MONTH = 'MONTH',
}
registerEnumType(SpendingGroupBy, { name: 'SpendingGroupBy' });

/** Whose spending a summary reads. */
export enum SpendingViewKind {
  /** Your records, in full. */
  OWN = 'own',
  /** What you bear: your records that are not shared in full, and your share of the records shared in your households. */
  MY_SHARE = 'myShare',
  /** A household's shared records (householdId), in full, or one member's share of them (memberId). */
  HOUSEHOLD = 'household',
}
registerEnumType(SpendingViewKind, { name: 'SpendingView' });

@ObjectType('SpendingGroup')
export class SpendingGroupView {
  @Field({ description: 'Category or folder id ("0": none), currency code, or YYYY-MM' }) key!: string;
  @Field() label!: string;
  @Field(() => Int) count!: number;
  @Field({ description: "Average monthly cost of the group's active recurring records, in the base currency" })
  monthlyTotal!: string;
  @Field({ description: 'monthlyTotal × 12' }) yearlyTotal!: string;
  @Field({
    description:
      'What falls due within [from, to] as planned (each payment at the price its date has), in the base currency',
  })
  periodTotal!: string;
  @Field({ description: 'periodTotal: what the records plan for [from, to]' }) plannedTotal!: string;
  @Field({
    description: "What was paid within [from, to] (the ledger's paid entries, by the day paid), in the base currency",
  })
  paidTotal!: string;
  @Field(() => String, {
    nullable: true,
    description: "The category's monthly budget over [from, to] (CATEGORY grouping)",
  })
  budget!: string | null;
}

@ObjectType('SpendingSummary')
export class SpendingSummaryView {
  @Field(() => CurrencyResolver) baseCurrency!: string;
  @Field(() => LocalDateScalar) from!: string;
  @Field(() => LocalDateScalar) to!: string;
  @Field() monthlyTotal!: string;
  @Field() yearlyTotal!: string;
  @Field() periodTotal!: string;
  @Field() plannedTotal!: string;
  @Field() paidTotal!: string;
  @Field(() => String, { nullable: true, description: 'The overall monthly budget' }) monthlyBudget!: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The monthly budget's share of [from, to]: each month's budget by the part of its days within",
  })
  budget!: string | null;
  @Field(() => [SpendingGroupView]) groups!: SpendingGroupView[];
}

@ObjectType('Budget', { description: 'A monthly budget in the base currency: overall, or for one category.' })
export class BudgetView {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true, description: 'null: the overall budget' }) categoryId!: number | null;
  @Field(() => String, { nullable: true }) categoryName!: string | null;
  @Field({ description: 'Decimal string, per month' }) amount!: string;
  @Field(() => Int, {
    nullable: true,
    description: "The alert definition whose channels warn when next month's planned total exceeds it",
  })
  alertId!: number | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM: the month last warned of' }) warnedMonth!:
    string | null;
}

@InputType()
export class BudgetInput {
  @Field({ description: 'Decimal string, per month, in the base currency' }) amount!: string;
  @Field(() => Int, { nullable: true, description: 'A category (global or yours); none: the overall budget' })
  categoryId?: number | null;
  @Field(() => Int, {
    nullable: true,
    description:
      "An alert definition (global or yours) whose channels warn, once a month, when next month's planned total exceeds the budget; none: no warning",
  })
  alertId?: number | null;
}
