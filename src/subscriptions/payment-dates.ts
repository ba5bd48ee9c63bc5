import { type CalendarDate, dayNumber, epochDay, fromEpochDay, monthsAfter, mustParse } from '../platform/dates';
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
  /** The last day a payment may fall on (expiry_date: the contract ends); null or absent: no end. */
  until?: string | null;
}

/** `date`, or the schedule's end when that comes first. */
const clamped = (schedule: Schedule, date: string) => (schedule.until && schedule.until < date ? schedule.until : date);

/** Fixed-day periods (billing_type 1): a day 1, a week 7, a month 30, a year 365 days. */
const FIXED_DAYS: Record<number, number> = {
  [Cycle.Daily]: 1,
  [Cycle.Weekly]: 7,
  [Cycle.Monthly]: 30,
  [Cycle.Yearly]: 365,
};

/** A schedule ready for stepping: the anchor as numbers and the period in months or in days. */
interface Stepper {
  anchor: CalendarDate;
  anchorDay: number;
  /** Months per period for calendar-date monthly and yearly billing, else 0. */
  months: number;
  /** Days per period otherwise. */
  days: number;
  /** An approximate period in days, to jump near a target date before stepping exactly. */
  approximateDays: number;
}

function stepperOf({ anchor, billingType, billingCycle, billingFrequency }: Schedule): Stepper {
  const parsed = mustParse(anchor);
  const calendar =
    billingType === BillingType.CalendarDate && (billingCycle === Cycle.Monthly || billingCycle === Cycle.Yearly);
  const months = calendar ? billingFrequency * (billingCycle === Cycle.Yearly ? 12 : 1) : 0;
  // Days and weeks are the same fixed length in both billing types.
  const days = calendar ? 0 : billingFrequency * FIXED_DAYS[billingCycle];
  return {
    anchor: parsed,
    anchorDay: dayNumber(parsed),
    months,
    days,
    approximateDays: calendar ? months * 30.436875 : days,
  };
}

/** The period between payments: whole months (calendar-date monthly and yearly billing) or fixed days. */
export function periodOf(schedule: Schedule): { months: number; days: number } {
  const { months, days } = stepperOf(schedule);
  return { months, days };
}

/** The day number of occurrence n (0 is the anchor itself). */
function occurrenceDay(stepper: Stepper, n: number): number {
  return stepper.months > 0
    ? dayNumber(monthsAfter(stepper.anchor, n * stepper.months))
    : stepper.anchorDay + n * stepper.days;
}

/** Occurrence n (0 is the anchor itself). */
export function occurrence(schedule: Schedule, n: number): string {
  return fromEpochDay(occurrenceDay(stepperOf(schedule), n));
}

/** The index of the first occurrence on or after day number `target` (0 when the anchor is not before it). */
function firstIndexFrom(stepper: Stepper, target: number): number {
  const gap = target - stepper.anchorDay;
  if (gap <= 0) return 0;
  let n = Math.max(0, Math.floor(gap / stepper.approximateDays) - 1);
  while (occurrenceDay(stepper, n) < target) n++;
  while (n > 0 && occurrenceDay(stepper, n - 1) >= target) n--;
  return n;
}

/** The first payment date on or after `today`; null when the schedule ends before it. */
export function nextOnOrAfter(schedule: Schedule, today: string): string | null {
  const stepper = stepperOf(schedule);
  const next = fromEpochDay(occurrenceDay(stepper, firstIndexFrom(stepper, epochDay(today))));
  return clamped(schedule, next) === next ? next : null;
}

/** The last payment date on or before `today` (and the schedule's end), or null when the anchor is still ahead. */
export function lastOnOrBefore(schedule: Schedule, today: string): string | null {
  today = clamped(schedule, today);
  if (schedule.anchor > today) return null;
  const stepper = stepperOf(schedule);
  const todayDay = epochDay(today);
  const next = firstIndexFrom(stepper, todayDay);
  const nextDay = occurrenceDay(stepper, next);
  return fromEpochDay(nextDay === todayDay ? nextDay : occurrenceDay(stepper, next - 1));
}

/** Every payment date within [from, to] (and the schedule's end), in order. */
export function occurrencesBetween(schedule: Schedule, from: string, to: string): string[] {
  const stepper = stepperOf(schedule);
  const last = epochDay(clamped(schedule, to));
  const dates: string[] = [];
  for (let n = firstIndexFrom(stepper, epochDay(from)); ; n++) {
    const day = occurrenceDay(stepper, n);
    if (day > last) return dates;
    dates.push(fromEpochDay(day));
  }
}
