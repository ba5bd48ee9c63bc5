import { epochDay, mustParse } from '../platform/dates';
import { BillingType, Cycle } from '../subscriptions/codes';
import { occurrence, type Schedule } from '../subscriptions/payment-dates';
import type { BillingPeriod } from './statement';

/** A period the detector looks for, with how far a booking may stray from it and how many make a series. */
export interface PeriodRule {
  period: BillingPeriod;
  /** "monthly", "every 2 weeks": for reasons. */
  name: string;
  /** The period's average length, to tell which occurrence a date is nearest to. */
  approximateDays: number;
  /** Days a booking may be off its date: weekends and bank holidays move debits by up to three. */
  toleranceDays: number;
  /** Payments a series needs at least. */
  minimumPayments: number;
}

const MONTH_DAYS = 30.436875;

const weeks = (frequency: number, name: string, toleranceDays: number): PeriodRule => ({
  period: { cycle: Cycle.Weekly, frequency },
  name,
  approximateDays: 7 * frequency,
  toleranceDays,
  minimumPayments: 3,
});
const months = (frequency: number, name: string, minimumPayments: number): PeriodRule => ({
  period: { cycle: Cycle.Monthly, frequency },
  name,
  approximateDays: MONTH_DAYS * frequency,
  toleranceDays: 3,
  minimumPayments,
});

export const PERIOD_RULES: readonly PeriodRule[] = [
  weeks(1, 'weekly', 1),
  weeks(2, 'every 2 weeks', 2),
  weeks(4, 'every 4 weeks', 2),
  months(1, 'monthly', 3),
  months(2, 'every 2 months', 3),
  months(3, 'every 3 months', 3),
  months(6, 'every 6 months', 2),
  {
    period: { cycle: Cycle.Yearly, frequency: 1 },
    name: 'yearly',
    approximateDays: MONTH_DAYS * 12,
    toleranceDays: 3,
    minimumPayments: 2,
  },
];

/** Whether the period steps in calendar months (months and years), keeping the day of the month. */
export const isCalendarPeriod = (rule: PeriodRule) => rule.period.cycle !== Cycle.Weekly;

/** The period as the project's payment schedules step it, from a payment's date. */
export function scheduleOf(rule: PeriodRule, anchor: string): Schedule {
  return {
    anchor,
    billingType: isCalendarPeriod(rule) ? BillingType.CalendarDate : BillingType.FixedDays,
    billingCycle: rule.period.cycle,
    billingFrequency: rule.period.frequency,
  };
}

/** The day number of the schedule's occurrence n (negative n: before the anchor). */
export function occurrenceDay(schedule: Schedule, n: number): number {
  return epochDay(occurrence(schedule, n));
}

/** The occurrence of the schedule nearest to a day number. */
export function nearestOccurrence(rule: PeriodRule, schedule: Schedule, day: number): number {
  return Math.round((day - epochDay(schedule.anchor)) / rule.approximateDays);
}

/**
 * The phase a payment gives its series: the day of the month for calendar periods, the day within the period
 * otherwise. Payments of one phase anchor a series the same way.
 */
export function phaseOf(rule: PeriodRule, date: string): number {
  return isCalendarPeriod(rule) ? mustParse(date).day : epochDay(date) % rule.approximateDays;
}

const WEEKDAYS = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];
const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** "monthly on the 3rd", "weekly on Mondays", "yearly on 3 March": the period from its anchor. */
export function describePeriod(rule: PeriodRule, anchor: string): string {
  if (rule.period.cycle === Cycle.Weekly) return `${rule.name} on ${WEEKDAYS[(epochDay(anchor) + 4) % 7]}`;
  const { month, day } = mustParse(anchor);
  if (rule.period.cycle === Cycle.Yearly) return `${rule.name} on ${day} ${MONTHS[month - 1]}`;
  return `${rule.name} on the ${ordinal(day)}`;
}

function ordinal(day: number): string {
  const suffix =
    day % 10 === 1 && day !== 11
      ? 'st'
      : day % 10 === 2 && day !== 12
        ? 'nd'
        : day % 10 === 3 && day !== 13
          ? 'rd'
          : 'th';
  return `${day}${suffix}`;
}
