import Decimal from 'decimal.js';

import { addDays, daysInMonth, endOfMonth, epochDay, mustParse } from '../platform/dates';
import { centsText } from '../platform/money';
import { BillingType, Cycle } from '../subscriptions/codes';

/**
 * One row of the database's spending sums (spendingSumsSql): the records of one group and billing kind
 * (`kind`), or, by month, the payments of one month (`month`, billing kind null). Cents are exact integers,
 * as text.
 */
export interface SpendingSum {
  part: 'kind' | 'month';
  key: string;
  label: string;
  recurring: number | null;
  billing_type: number | null;
  billing_cycle: number | null;
  billing_frequency: number | null;
  count: number;
  cents: string;
  period_cents: string;
}

/** One row of the paid sums (paidSumsSql): the paid entries of one group, in exact cents of the base currency. */
export interface PaidSum {
  key: string;
  label: string;
  count: number;
  cents: string;
}

/** The user's monthly budgets in the base currency: overall, and per category (keyed by its id, with its name). */
export interface MonthlyBudgets {
  overall: string | null;
  categories: ReadonlyArray<{ key: string; label: string; amount: string }>;
}

/** No budgets: what a household's totals, and the planned sums a budget warning reads, are summed against. */
export const NO_BUDGETS: MonthlyBudgets = { overall: null, categories: [] };

/** Payments per month of one cycle unit: a calendar month is 1/12 of a year of 365.2425 days. */
const PER_MONTH: Record<number, Decimal> = {
  [Cycle.Daily]: new Decimal('365.2425').dividedBy(12),
  [Cycle.Weekly]: new Decimal('365.2425').dividedBy(12).dividedBy(7),
  [Cycle.Monthly]: new Decimal(1),
  [Cycle.Yearly]: new Decimal(1).dividedBy(12),
};

/** Fixed-day billing (billing_type 1) counts a month as 30 days and a year as 365. */
const PER_MONTH_FIXED: Record<number, Decimal> = {
  ...PER_MONTH,
  [Cycle.Monthly]: new Decimal('365.2425').dividedBy(12).dividedBy(30),
  [Cycle.Yearly]: new Decimal('365.2425').dividedBy(12).dividedBy(365),
};

/** What a recurring price costs per month on average (unrounded), for totals. */
export function monthlyEquivalent(
  price: Decimal.Value,
  billingType: number,
  billingCycle: number,
  billingFrequency: number,
): Decimal {
  const perMonth = (billingType === BillingType.FixedDays ? PER_MONTH_FIXED : PER_MONTH)[billingCycle];
  return new Decimal(price).times(perMonth).dividedBy(billingFrequency);
}

/** Group keys in order: ids numerically, months and currencies as text (a collator per comparison was costly). */
const keyOrder = new Intl.Collator('en', { numeric: true });

export type SpendingGrouping = 'CATEGORY' | 'FOLDER' | 'CURRENCY' | 'MONTH';

export interface SpendingGroup {
  key: string;
  label: string;
  count: number;
  monthlyTotal: string;
  yearlyTotal: string;
  periodTotal: string;
  /** What was paid within [from, to] (the ledger's paid entries, by the day paid). */
  paidTotal: string;
  /** The category's monthly budget over [from, to] (CATEGORY grouping), else null. */
  budget: string | null;
}

export interface SpendingSummary {
  baseCurrency: string;
  from: string;
  to: string;
  monthlyTotal: string;
  yearlyTotal: string;
  periodTotal: string;
  paidTotal: string;
  /** The overall monthly budget, and its share of [from, to] (each month's part by its days); null without one. */
  monthlyBudget: string | null;
  budget: string | null;
  /** In key order: months ascending, ids numerically, currencies alphabetically. */
  groups: SpendingGroup[];
}

/**
 * A group's sums in integer cents, exact as BigInt. Recurring records are summed per billing kind (type,
 * cycle, frequency), and each sum turned into a monthly cost once, in decimal: the same total as converting
 * every record, without a decimal computation per record.
 */
interface Accumulator {
  label: string;
  count: number;
  /** Cents of the recurring records per billing kind (keyed `type|cycle|frequency`). */
  recurringCents: Map<string, BillingKindCents>;
  /** Cents counted as they are towards the monthly total (MONTH grouping: each payment of the month). */
  plainCents: bigint;
  periodCents: bigint;
  paidCents: bigint;
  /** The group's monthly budget (a category's), if any. */
  monthlyBudget: string | null;
}

interface BillingKindCents {
  billingType: number;
  billingCycle: number;
  billingFrequency: number;
  cents: bigint;
}

const newAccumulator = (label: string): Accumulator => ({
  label,
  count: 0,
  recurringCents: new Map(),
  plainCents: 0n,
  periodCents: 0n,
  paidCents: 0n,
  monthlyBudget: null,
});

/** Adds one billing kind's sums (a `kind` row) to an accumulator. */
function addKind(accumulator: Accumulator, sum: SpendingSum): void {
  accumulator.periodCents += BigInt(sum.period_cents);
  if (sum.recurring !== 1) return;
  const key = `${sum.billing_type}|${sum.billing_cycle}|${sum.billing_frequency}`;
  const kind = accumulator.recurringCents.get(key);
  if (kind) kind.cents += BigInt(sum.cents);
  else
    accumulator.recurringCents.set(key, {
      billingType: sum.billing_type!,
      billingCycle: sum.billing_cycle!,
      billingFrequency: sum.billing_frequency!,
      cents: BigInt(sum.cents),
    });
}

/** The unrounded monthly cost an accumulator stands for. */
function monthlyOf(accumulator: Accumulator): Decimal {
  let monthly = new Decimal(accumulator.plainCents.toString()).dividedBy(100);
  for (const { billingType, billingCycle, billingFrequency, cents } of accumulator.recurringCents.values()) {
    monthly = monthly.plus(
      monthlyEquivalent(new Decimal(cents.toString()).dividedBy(100), billingType, billingCycle, billingFrequency),
    );
  }
  return monthly;
}

/**
 * A monthly budget's share of [from, to]: each month's budget times the part of its days within the range
 * (a whole month: its budget exactly), in decimal, rounded to cents once.
 */
export function budgetOver(monthly: string, from: string, to: string): string {
  let total = new Decimal(0);
  for (let start = from; start <= to; start = addDays(endOfMonth(start), 1)) {
    const end = endOfMonth(start) < to ? endOfMonth(start) : to;
    const { year, month } = mustParse(start);
    total = total.plus(
      new Decimal(monthly).times(epochDay(end) - epochDay(start) + 1).dividedBy(daysInMonth(year, month)),
    );
  }
  return total.toFixed(2, Decimal.ROUND_HALF_UP);
}

export interface SpendingInputs {
  sums: readonly SpendingSum[];
  paid: readonly PaidSum[];
  budgets: MonthlyBudgets;
  baseCurrency: string;
  from: string;
  to: string;
  grouping: SpendingGrouping;
}

/**
 * What active records cost in the base currency: the average monthly (and yearly) cost of recurring ones,
 * what falls due within [from, to] as planned and what was paid then, against the budgets; per category,
 * folder, price currency, or month of payment.
 */
export function summarizeSpending({
  sums,
  paid,
  budgets,
  baseCurrency,
  from,
  to,
  grouping,
}: SpendingInputs): SpendingSummary {
  const groups = new Map<string, Accumulator>();
  const groupFor = (key: string, label: string) => {
    let group = groups.get(key);
    if (!group) groups.set(key, (group = newAccumulator(label)));
    return group;
  };
  const total = newAccumulator('');
  for (const sum of sums) {
    if (sum.part === 'month') {
      const group = groupFor(sum.key, sum.label);
      group.count += sum.count;
      group.plainCents += BigInt(sum.cents);
      group.periodCents += BigInt(sum.period_cents);
      continue;
    }
    addKind(total, sum);
    if (grouping === 'MONTH') continue;
    const group = groupFor(sum.key, sum.label);
    group.count += sum.count;
    addKind(group, sum);
  }
  for (const sum of paid) {
    total.paidCents += BigInt(sum.cents);
    groupFor(sum.key, sum.label).paidCents += BigInt(sum.cents);
  }
  if (grouping === 'CATEGORY')
    for (const budget of budgets.categories) groupFor(budget.key, budget.label).monthlyBudget = budget.amount;
  const money = (value: Decimal) => value.toFixed(2, Decimal.ROUND_HALF_UP);
  const monthlyTotal = monthlyOf(total);
  return {
    baseCurrency,
    from,
    to,
    monthlyTotal: money(monthlyTotal),
    yearlyTotal: money(monthlyTotal.times(12)),
    periodTotal: centsText(total.periodCents),
    paidTotal: centsText(total.paidCents),
    monthlyBudget: budgets.overall,
    budget: budgets.overall === null ? null : budgetOver(budgets.overall, from, to),
    groups: [...groups.entries()]
      .sort(([a], [b]) => keyOrder.compare(a, b))
      .map(([key, group]) => {
        const monthly = monthlyOf(group);
        return {
          key,
          label: group.label,
          count: group.count,
          monthlyTotal: money(monthly),
          yearlyTotal: money(monthly.times(12)),
          periodTotal: centsText(group.periodCents),
          paidTotal: centsText(group.paidCents),
          budget: group.monthlyBudget === null ? null : budgetOver(group.monthlyBudget, from, to),
        };
      }),
  };
}
