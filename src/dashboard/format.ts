/** Numbers, money and dates in the browser's locale. */

const locale = navigator.language;

export function money(amount: string | number, currency: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(amount));
}

/** A calendar date (YYYY-MM-DD) as the locale writes it; no zone is involved. */
export function calendarDate(date: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, day)),
  );
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

export const CYCLES: Record<number, string> = { 1: 'Daily', 2: 'Weekly', 3: 'Monthly', 4: 'Yearly' };
export const STATUSES: Record<number, string> = {
  0: 'Draft',
  1: 'Active',
  2: 'Cancelled',
  3: 'Refunded',
  4: 'Expired',
};
export const TYPES: Record<number, string> = { 1: 'Subscription', 2: 'Trial', 3: 'Lifetime' };

/** A two-decimal amount as whole cents, read from its digits (sums of money stay exact). */
export function cents(amount: string): number {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  const value = Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2));
  return negative ? -value : value;
}
