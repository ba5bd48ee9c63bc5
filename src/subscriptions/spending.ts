import Decimal from 'decimal.js';
import { BillingType, Cycle, Status } from './codes';
import { occurrencesBetween } from './payment-dates';
import { scheduleOf, type SubscriptionRecord } from './subscription.record';

/** The fields of a record its spending is computed from. */
export type SpendingRow = Pick<
  SubscriptionRecord,
  | 'id'
  | 'status'
  | 'recurring'
  | 'price_type'
  | 'payment_date'
  | 'billing_type'
  | 'billing_cycle'
  | 'billing_frequency'
  | 'category_id'
  | 'category_name'
  | 'folder_id'
  | 'folder_name'
  | 'base_value'
>;

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
export function monthlyEquivalent(price: Decimal.Value, billingType: number, billingCycle: number, billingFrequency: number): Decimal {
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

/**
 * Sums in integer cents (base values have two decimals), exact as BigInt. A group's recurring records are
 * summed per billing kind (type, cycle, frequency), and each sum turned into a monthly cost once, in decimal:
 * the same total as converting every record, without a decimal.js computation per record.
 */
interface Accumulator {
  label: string;
  count: number;
  /** Cents of the recurring records per billing kind (keyed `type|cycle|frequency`). */
  recurringCents: Map<string, BillingKindCents>;
  /** Cents counted as they are towards the monthly total (MONTH grouping: each payment of the month). */
  plainCents: bigint;
  periodCents: bigint;
}

interface BillingKindCents {
  billingType: number;
  billingCycle: number;
  billingFrequency: number;
  cents: bigint;
}

const newAccumulator = (label: string): Accumulator => ({ label, count: 0, recurringCents: new Map(), plainCents: 0n, periodCents: 0n });

/** Exact cents of a two-decimal amount string. */
function centsOf(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [units, fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const cents = BigInt(units) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -cents : cents;
}

function addRecurring(accumulator: Accumulator, record: SpendingRow, cents: bigint): void {
  const key = `${record.billing_type}|${record.billing_cycle}|${record.billing_frequency}`;
  const kind = accumulator.recurringCents.get(key);
  if (kind) kind.cents += cents;
  else
    accumulator.recurringCents.set(key, {
      billingType: record.billing_type,
      billingCycle: record.billing_cycle,
      billingFrequency: record.billing_frequency,
      cents,
    });
}

/** The unrounded monthly cost an accumulator stands for. */
function monthlyOf(accumulator: Accumulator): Decimal {
  let monthly = new Decimal(accumulator.plainCents.toString()).dividedBy(100);
  for (const { billingType, billingCycle, billingFrequency, cents } of accumulator.recurringCents.values()) {
    monthly = monthly.plus(monthlyEquivalent(new Decimal(cents.toString()).dividedBy(100), billingType, billingCycle, billingFrequency));
  }
  return monthly;
}

/** Two decimals of exact cents. */
function centsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const magnitude = cents < 0n ? -cents : cents;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
}

/** Payment dates of a record within [from, to]. */
function paymentsWithin(record: SpendingRow, from: string, to: string): string[] {
  if (record.recurring === 1) return occurrencesBetween(scheduleOf(record), from, to);
  return record.payment_date >= from && record.payment_date <= to ? [record.payment_date] : [];
}

function groupOf(record: SpendingRow, grouping: Exclude<SpendingGrouping, 'MONTH'>): { key: string; label: string } {
  if (grouping === 'CATEGORY') return { key: String(record.category_id ?? 0), label: record.category_name ?? 'Uncategorised' };
  if (grouping === 'FOLDER') return { key: String(record.folder_id ?? 0), label: record.folder_name ?? 'No folder' };
  return { key: record.price_type, label: record.price_type };
}

/**
 * What active records cost in the base currency: the average monthly (and yearly) cost of recurring ones,
 * and what falls due within [from, to]; per category, folder, price currency, or month of payment.
 */
export function summarizeSpending(
  records: readonly SpendingRow[],
  baseCurrency: string,
  from: string,
  to: string,
  grouping: SpendingGrouping,
): SpendingSummary {
  const groups = new Map<string, Accumulator>();
  const groupFor = (key: string, label: string) => {
    let group = groups.get(key);
    if (!group) groups.set(key, (group = newAccumulator(label)));
    return group;
  };
  const total = newAccumulator('');
  for (const record of records) {
    if (record.status !== Status.Active) continue;
    const cents = centsOf(record.base_value);
    const payments = paymentsWithin(record, from, to);
    if (record.recurring === 1) addRecurring(total, record, cents);
    total.periodCents += cents * BigInt(payments.length);
    if (grouping === 'MONTH') {
      for (const date of payments) {
        const group = groupFor(date.slice(0, 7), date.slice(0, 7));
        group.count += 1;
        group.plainCents += cents;
        group.periodCents += cents;
      }
    } else {
      const { key, label } = groupOf(record, grouping);
      const group = groupFor(key, label);
      group.count += 1;
      if (record.recurring === 1) addRecurring(group, record, cents);
      group.periodCents += cents * BigInt(payments.length);
    }
  }
  const money = (value: Decimal) => value.toFixed(2, Decimal.ROUND_HALF_UP);
  const monthlyTotal = monthlyOf(total);
  return {
    baseCurrency,
    from,
    to,
    monthlyTotal: money(monthlyTotal),
    yearlyTotal: money(monthlyTotal.times(12)),
    periodTotal: centsText(total.periodCents),
    groups: [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([key, group]) => {
        const monthly = monthlyOf(group);
        return {
          key,
          label: group.label,
          count: group.count,
          monthlyTotal: money(monthly),
          yearlyTotal: money(monthly.times(12)),
          periodTotal: centsText(group.periodCents),
        };
      }),
  };
}
