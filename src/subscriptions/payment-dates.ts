import { BillingType, Cycle } from './codes';

/**
 * Payment dates as calendar dates (`YYYY-MM-DD`), never instants. Occurrence n is always computed from the
 * anchor (payment_date) as anchor + n × period, never stepped from the previous occurrence, so month-end
 * clamping cannot drift: Jan 31 → Feb 28/29 → Mar 31 → Apr 30.
 */

export interface Schedule {
  /** The anchor: payment_date. */
  anchor: string;
  billingType: number;
  billingCycle: number;
  billingFrequency: number;
}

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** The date as numbers, or null when the text is not a real calendar date (2025-02-30 is not). */
export function parseDate(text: string): CalendarDate | null {
  const match = DATE_PATTERN.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

export function isCalendarDate(text: string): boolean {
  return parseDate(text) !== null;
}

function mustParse(text: string): CalendarDate {
  const date = parseDate(text);
  if (!date) throw new RangeError(`not a calendar date: ${text}`);
  return date;
}

export function formatDate({ year, month, day }: CalendarDate): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Days since 1970-01-01 of a calendar date (UTC arithmetic on dates only: no zone is involved). */
export function epochDay(text: string): number {
  const { year, month, day } = mustParse(text);
  return Math.round(Date.UTC(year, month - 1, day) / MS_PER_DAY);
}

export function fromEpochDay(days: number): string {
  const date = new Date(days * MS_PER_DAY);
  return formatDate({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
}

export function addDays(text: string, days: number): string {
  return fromEpochDay(epochDay(text) + days);
}

/** Adds whole months keeping the day, clamped to the last day of a shorter month. */
export function addMonths(text: string, months: number): string {
  const { year, month, day } = mustParse(text);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  return formatDate({ year: targetYear, month: targetMonth, day: Math.min(day, daysInMonth(targetYear, targetMonth)) });
}

/** Fixed-day periods (billing_type 1): a day 1, a week 7, a month 30, a year 365 days. */
const FIXED_DAYS: Record<number, number> = { [Cycle.Daily]: 1, [Cycle.Weekly]: 7, [Cycle.Monthly]: 30, [Cycle.Yearly]: 365 };

/** Occurrence n (0 is the anchor itself). */
export function occurrence(schedule: Schedule, n: number): string {
  const { anchor, billingType, billingCycle, billingFrequency } = schedule;
  if (billingType === BillingType.CalendarDate && (billingCycle === Cycle.Monthly || billingCycle === Cycle.Yearly)) {
    return addMonths(anchor, n * billingFrequency * (billingCycle === Cycle.Yearly ? 12 : 1));
  }
  // Days and weeks are the same fixed length in both billing types.
  return addDays(anchor, n * billingFrequency * FIXED_DAYS[billingCycle]);
}

/** An approximate period in days, to jump near a target date before stepping exactly. */
function approximatePeriodDays(schedule: Schedule): number {
  const calendar = schedule.billingType === BillingType.CalendarDate;
  const days = calendar && schedule.billingCycle === Cycle.Monthly ? 30.436875 : calendar && schedule.billingCycle === Cycle.Yearly ? 365.2425 : FIXED_DAYS[schedule.billingCycle];
  return days * schedule.billingFrequency;
}

/** The index of the first occurrence on or after `date` (0 when the anchor is not before it). */
export function firstIndexOnOrAfter(schedule: Schedule, date: string): number {
  const gap = epochDay(date) - epochDay(schedule.anchor);
  if (gap <= 0) return 0;
  let n = Math.max(0, Math.floor(gap / approximatePeriodDays(schedule)) - 1);
  while (occurrence(schedule, n) < date) n++;
  while (n > 0 && occurrence(schedule, n - 1) >= date) n--;
  return n;
}

/** The first payment date on or after `today`. */
export function nextOnOrAfter(schedule: Schedule, today: string): string {
  return occurrence(schedule, firstIndexOnOrAfter(schedule, today));
}

/** The last payment date on or before `today`, or null when the anchor is still ahead. */
export function lastOnOrBefore(schedule: Schedule, today: string): string | null {
  if (schedule.anchor > today) return null;
  const next = firstIndexOnOrAfter(schedule, today);
  return occurrence(schedule, occurrence(schedule, next) === today ? next : next - 1);
}

/** Every payment date within [from, to], in order. */
export function occurrencesBetween(schedule: Schedule, from: string, to: string): string[] {
  const dates: string[] = [];
  for (let n = firstIndexOnOrAfter(schedule, from); ; n++) {
    const date = occurrence(schedule, n);
    if (date > to) return dates;
    dates.push(date);
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's date in an IANA zone (formatters are costly to build, so one is kept per zone). */
export function todayIn(timezone: string, now: Date = new Date()): string {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timezone, formatter);
  }
  const parts = formatter.formatToParts(now);
  const value = (type: string) => parts.find((part) => part.type === type)!.value;
  return `${value('year')}-${value('month')}-${value('day')}`;
}

let zones: Set<string> | undefined;

/** Whether the name is in the runtime's list of IANA zones (UTC included). */
export function isTimeZone(name: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);
  return zones.has(name);
}
