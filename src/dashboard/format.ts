/** Numbers, money and dates in the browser's locale. */
import type { BillingCycle, RecordStatus, RecordType } from './graphql.generated';

const locale = navigator.language;

export function money(amount: string | number, currency: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(amount));
}

/** A Money of the schema, as the operations select it (`{ amount currency }`). */
export interface Money {
  amount: string;
  currency: string;
}

/** A Money in the locale's way: money() of its amount and currency. */
export const moneyOf = (value: Money): string => money(value.amount, value.currency);

/** A calendar date (YYYY-MM-DD) as the locale writes it; no zone is involved. */
export function calendarDate(date: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, day)),
  );
}

/** An instant (an ISO date-time) as the locale writes a date and time, in the browser's zone. */
export function instant(iso: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export const pad = (value: number) => String(value).padStart(2, '0');

/** Days in a month (1-12) of a year: calendar arithmetic only. */
export const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Today as a calendar date (YYYY-MM-DD) in the browser's zone. */
export function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The first and last days of a month (YYYY-MM). */
export function monthRange(month: string): { from: string; to: string } {
  const [year, number] = month.split('-').map(Number);
  return { from: `${month}-01`, to: `${month}-${pad(daysIn(year, number))}` };
}

export function monthTitle(year: number, month: number): string {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, 1)),
  );
}

/** The record's closed sets by their GraphQL enum names, as the screens show them. */
export const RECORD_TYPES: Record<RecordType, string> = {
  SUBSCRIPTION: 'Subscription',
  TRIAL: 'Trial',
  LIFETIME: 'Lifetime',
};
export const BILLING_CYCLES: Record<BillingCycle, string> = {
  DAILY: 'Daily',
  WEEKLY: 'Weekly',
  MONTHLY: 'Monthly',
  YEARLY: 'Yearly',
};
const CYCLE_UNITS: Record<BillingCycle, string> = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' };

/** Billing as people say it: "Monthly", "Every 2 months", "Yearly, trial", "Lifetime". */
export function billingWording(type: RecordType, cycle: BillingCycle, frequency: number): string {
  if (type === 'LIFETIME') return 'Lifetime';
  const every = frequency > 1 ? `Every ${frequency} ${CYCLE_UNITS[cycle]}s` : BILLING_CYCLES[cycle];
  return type === 'TRIAL' ? `${every}, trial` : every;
}
export const RECORD_STATUSES: Record<RecordStatus, string> = {
  DRAFT: 'Draft',
  ACTIVE: 'Active',
  CANCELLED: 'Cancelled',
  REFUNDED: 'Refunded',
  EXPIRED: 'Expired',
};

/** A two-decimal amount as whole cents, read from its digits (sums of money stay exact). */
export function cents(amount: string): number {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  const value = Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2));
  return negative ? -value : value;
}
