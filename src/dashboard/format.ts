/** Numbers, money and dates in the locale of the language spoken (i18n.ts). */
import type { BillingCycle, RecordStatus, RecordType } from './graphql.generated';
import { locale, t } from './i18n';

export function money(amount: string | number, currency: string): string {
  return new Intl.NumberFormat(locale(), { style: 'currency', currency }).format(Number(amount));
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
  return new Intl.DateTimeFormat(locale(), { ...options, timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, day)),
  );
}

/** An instant (an ISO date-time) as the locale writes a date and time, in the browser's zone. */
export function instant(iso: string): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
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

/** The short names of the days of the week, Monday first, as the locale writes them. */
export function weekdayNames(): string[] {
  const format = new Intl.DateTimeFormat(locale(), { weekday: 'short', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, index) => format.format(new Date(Date.UTC(2024, 0, 1 + index))));
}

export function monthTitle(year: number, month: number): string {
  return new Intl.DateTimeFormat(locale(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, 1)),
  );
}

/** A month (YYYY-MM) as the locale names it: "March 2027", "März 2027". */
export function monthName(month: string): string {
  const [year, number] = month.split('-').map(Number);
  return monthTitle(year, number);
}

/** The record's closed sets by their GraphQL enum names, as the screens show them in the language spoken. */
export const recordTypes = (): Record<RecordType, string> => ({
  SUBSCRIPTION: t('common:recordType.SUBSCRIPTION'),
  TRIAL: t('common:recordType.TRIAL'),
  LIFETIME: t('common:recordType.LIFETIME'),
});
export const recordStatuses = (): Record<RecordStatus, string> => ({
  DRAFT: t('common:recordStatus.DRAFT'),
  ACTIVE: t('common:recordStatus.ACTIVE'),
  CANCELLED: t('common:recordStatus.CANCELLED'),
  REFUNDED: t('common:recordStatus.REFUNDED'),
  EXPIRED: t('common:recordStatus.EXPIRED'),
});

/** A cycle every `count` units, as people say it: "Monthly", "Every 2 months" (the language's plural rules). */
const every = (cycle: BillingCycle, count: number): string =>
  ({
    DAILY: () => t('common:billing.DAILY', { count }),
    WEEKLY: () => t('common:billing.WEEKLY', { count }),
    MONTHLY: () => t('common:billing.MONTHLY', { count }),
    YEARLY: () => t('common:billing.YEARLY', { count }),
  })[cycle]();

/** The same within a sentence: "monthly", "every 2 weeks". */
export const billingInSentence = (cycle: BillingCycle, count: number): string =>
  ({
    DAILY: () => t('common:billingInSentence.DAILY', { count }),
    WEEKLY: () => t('common:billingInSentence.WEEKLY', { count }),
    MONTHLY: () => t('common:billingInSentence.MONTHLY', { count }),
    YEARLY: () => t('common:billingInSentence.YEARLY', { count }),
  })[cycle]();

/** The billing cycles by name: "Daily", "Weekly"… */
export const billingCycles = (): Record<BillingCycle, string> => ({
  DAILY: every('DAILY', 1),
  WEEKLY: every('WEEKLY', 1),
  MONTHLY: every('MONTHLY', 1),
  YEARLY: every('YEARLY', 1),
});

/** Billing as people say it: "Monthly", "Every 2 months", "Yearly, trial", "Lifetime". */
export function billingWording(type: RecordType, cycle: BillingCycle, frequency: number): string {
  if (type === 'LIFETIME') return t('common:recordType.LIFETIME');
  const billing = every(cycle, frequency);
  return type === 'TRIAL' ? t('common:billing.trial', { billing }) : billing;
}

/** A two-decimal amount as whole cents, read from its digits (sums of money stay exact). */
export function cents(amount: string): number {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  const value = Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2));
  return negative ? -value : value;
}
