import Decimal from 'decimal.js';
import { BillingType, Cycle, Status } from './codes';
import { occurrencesBetween } from './payment-dates';
import { scheduleOf, type SubscriptionRecord } from './subscription.record';

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
export function monthlyEquivalent(price: string, billingType: number, billingCycle: number, billingFrequency: number): Decimal {
  const perMonth = (billingType === BillingType.FixedDays ? PER_MONTH_FIXED : PER_MONTH)[billingCycle];
  return new Decimal(price).times(perMonth).dividedBy(billingFrequency);
}

export type SpendingGrouping = 'CATEGORY' | 'FOLDER' | 'CURRENCY' | 'MONTH';

export interface SpendingGroup {
  key: string;
  label: string;
  count: number;
  monthlyTotal: string;
  yearlyTotal: string;
  periodTotal: string;
}

export interface SpendingSummary {
  baseCurrency: string;
  from: string;
  to: string;
  monthlyTotal: string;
  yearlyTotal: string;
  periodTotal: string;
  /** In key order: months ascending, ids numerically, currencies alphabetically. */
  groups: SpendingGroup[];
}

interface Accumulator {
  label: string;
  count: number;
  monthly: Decimal;
  period: Decimal;
}

/** Payment dates of a record within [from, to]. */
function paymentsWithin(record: SubscriptionRecord, from: string, to: string): string[] {
  if (record.recurring === 1) return occurrencesBetween(scheduleOf(record), from, to);
  return record.payment_date >= from && record.payment_date <= to ? [record.payment_date] : [];
}

function groupOf(record: SubscriptionRecord, grouping: Exclude<SpendingGrouping, 'MONTH'>): { key: string; label: string } {
  if (grouping === 'CATEGORY') return { key: String(record.category_id ?? 0), label: record.category_name ?? 'Uncategorised' };
  if (grouping === 'FOLDER') return { key: String(record.folder_id ?? 0), label: record.folder_name ?? 'No folder' };
  return { key: record.price_type, label: record.price_type };
}

/**
 * What active records cost in the base currency: the average monthly (and yearly) cost of recurring ones,
 * and what falls due within [from, to]; per category, folder, price currency, or month of payment.
 */
export function summarizeSpending(records: SubscriptionRecord[], baseCurrency: string, from: string, to: string, grouping: SpendingGrouping): SpendingSummary {
  const groups = new Map<string, Accumulator>();
  const add = (key: string, label: string, monthly: Decimal, period: Decimal, count: number) => {
    const group = groups.get(key) ?? { label, count: 0, monthly: new Decimal(0), period: new Decimal(0) };
    group.count += count;
    group.monthly = group.monthly.plus(monthly);
    group.period = group.period.plus(period);
    groups.set(key, group);
  };
  let monthlyTotal = new Decimal(0);
  let periodTotal = new Decimal(0);
  for (const record of records) {
    if (record.status !== Status.Active) continue;
    const monthly =
      record.recurring === 1 ? monthlyEquivalent(record.base_value, record.billing_type, record.billing_cycle, record.billing_frequency) : new Decimal(0);
    const payments = paymentsWithin(record, from, to);
    const period = new Decimal(record.base_value).times(payments.length);
    monthlyTotal = monthlyTotal.plus(monthly);
    periodTotal = periodTotal.plus(period);
    if (grouping === 'MONTH') {
      for (const date of payments) add(date.slice(0, 7), date.slice(0, 7), new Decimal(record.base_value), new Decimal(record.base_value), 1);
    } else {
      const { key, label } = groupOf(record, grouping);
      add(key, label, monthly, period, 1);
    }
  }
  const money = (value: Decimal) => value.toFixed(2, Decimal.ROUND_HALF_UP);
  return {
    baseCurrency,
    from,
    to,
    monthlyTotal: money(monthlyTotal),
    yearlyTotal: money(monthlyTotal.times(12)),
    periodTotal: money(periodTotal),
    groups: [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([key, group]) => ({
        key,
        label: group.label,
        count: group.count,
        monthlyTotal: money(group.monthly),
        yearlyTotal: money(group.monthly.times(12)),
        periodTotal: money(group.period),
      })),
  };
}
