import { CurrencyResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

import { DecimalScalar, Money } from '../platform/graphql/money';
import { Node } from '../platform/graphql/node';
import { LocalDateScalar } from '../platform/graphql/scalars';

/** What spending is grouped by. */
export enum SpendingGroupBy {
  CATEGORY = 'CATEGORY',
  FOLDER = 'FOLDER',
  CURRENCY = 'CURRENCY',
  MONTH = 'MONTH',
}
registerEnumType(SpendingGroupBy, {
  name: 'SpendingGroupBy',
  description: "What a spending summary's groups are.",
  valuesConfig: {
    CATEGORY: { description: "One group per category (with the category's budget), and one for records without." },
    FOLDER: { description: 'One group per folder, and one for records in none.' },
    CURRENCY: {
      description: "One group per currency the records' prices are in (the totals still in the base currency).",
    },
    MONTH: { description: 'One group per calendar month of the range (YYYY-MM).' },
  },
});

/** Whose spending a summary reads. */
export enum SpendingViewKind {
  OWN = 'own',
  MY_SHARE = 'myShare',
  HOUSEHOLD = 'household',
}
registerEnumType(SpendingViewKind, {
  name: 'SpendingView',
  description: 'Whose spending a summary reads.',
  valuesConfig: {
    OWN: { description: 'Your records, in full.' },
    MY_SHARE: {
      description:
        'What you bear: your records that are not shared in full, and your share of the records shared in your households.',
    },
    HOUSEHOLD: {
      description: "A household's shared records (householdId), in full, or one member's share of them (memberId).",
    },
  },
});

@ObjectType('SpendingGroup', { description: "One group of a spending summary's records, with its totals." })
export class SpendingGroupView {
  @Field({
    description: 'The global id of the category or folder ("NONE": records without one), the currency code, or YYYY-MM',
  })
  key!: string;
  @Field({ description: "The group's name for people: the category's or folder's name, the currency, the month." })
  label!: string;
  @Field(() => Int, { description: 'How many of the records are in the group.' }) count!: number;
  @Field(() => Money, {
    description: "Average monthly cost of the group's active recurring records, in the base currency",
  })
  monthlyTotal!: Money;
  @Field(() => Money, { description: 'monthlyTotal × 12, in the base currency' }) yearlyTotal!: Money;
  @Field(() => Money, {
    description:
      'What falls due within [from, to] as planned (each payment at the price its date has), in the base currency',
  })
  periodTotal!: Money;
  @Field(() => Money, { description: 'periodTotal: what the records plan for [from, to]' }) plannedTotal!: Money;
  @Field(() => Money, {
    description: "What was paid within [from, to] (the ledger's paid entries, by the day paid), in the base currency",
  })
  paidTotal!: Money;
  @Field(() => Money, {
    nullable: true,
    description: "The category's monthly budget over [from, to] (CATEGORY grouping), in the base currency",
  })
  budget!: Money | null;
}

@ObjectType('SpendingSummary', {
  description: 'What records cost and what was paid, in your base currency, over a range of days.',
})
export class SpendingSummaryView {
  @Field(() => CurrencyResolver, { description: 'The currency every total is given in (your base currency).' })
  baseCurrency!: string;
  @Field(() => LocalDateScalar, { description: 'The first day of the range.' }) from!: string;
  @Field(() => LocalDateScalar, { description: 'The last day of the range.' }) to!: string;
  @Field(() => Money, { description: 'Average monthly cost of the active recurring records.' }) monthlyTotal!: Money;
  @Field(() => Money, { description: 'monthlyTotal × 12.' }) yearlyTotal!: Money;
  @Field(() => Money, { description: 'What falls due within [from, to] as planned.' }) periodTotal!: Money;
  @Field(() => Money, { description: 'periodTotal: what the records plan for [from, to].' }) plannedTotal!: Money;
  @Field(() => Money, { description: "What was paid within [from, to] (the ledger's paid entries)." })
  paidTotal!: Money;
  @Field(() => Money, { nullable: true, description: 'The overall monthly budget; null without one.' })
  monthlyBudget!: Money | null;
  @Field(() => Money, {
    nullable: true,
    description: "The monthly budget's share of [from, to]: each month's budget by the part of its days within",
  })
  budget!: Money | null;
  @Field(() => [SpendingGroupView], { description: 'The groups, in key order (months ascending, names by id).' })
  groups!: SpendingGroupView[];
}

@ObjectType('Budget', {
  implements: Node,
  description: 'A monthly budget in the base currency: overall, or for one category (one of each).',
})
export class BudgetView {
  id!: number;
  @Field(() => ID, { nullable: true, description: 'The category (a ProductCategory id); null: the overall budget' })
  categoryId!: string | null;
  @Field(() => String, { nullable: true, description: "The category's name; null: the overall budget" })
  categoryName!: string | null;
  @Field(() => Money, { description: 'The budget per month, in your base currency' }) amount!: Money;
  @Field(() => ID, {
    nullable: true,
    description:
      "The alert definition (an Alert id) whose channels warn when next month's planned total exceeds it; null: no warning",
  })
  alertId!: string | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM: the month last warned of' }) warnedMonth!:
    string | null;
}

@InputType('SetBudgetInput', {
  description: 'A monthly budget, overall or for a category, replacing the one there was.',
})
export class SetBudgetInput {
  @Field(() => DecimalScalar, { description: 'The budget per month, in your base currency (at most 2 decimals).' })
  amount!: string;
  @Field(() => ID, {
    nullable: true,
    description: 'A category (global or yours; a ProductCategory id); left out: the overall budget',
  })
  categoryId?: string | null;
  @Field(() => ID, {
    nullable: true,
    description:
      "An alert definition (global or yours; an Alert id) whose channels warn, once a month, when next month's planned total exceeds the budget; left out: no warning",
  })
  alertId?: string | null;
}

@InputType('RemoveBudgetInput', { description: "The budget to remove: a category's, or the overall one." })
export class RemoveBudgetInput {
  @Field(() => ID, {
    nullable: true,
    description: 'The category whose budget goes (a ProductCategory id); left out: the overall budget.',
  })
  categoryId?: string | null;
}
