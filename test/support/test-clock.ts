import { addDays, addMonths, endOfMonth, todayIn } from '../../src/platform/dates';

/*
 * The one test clock. A test whose outcome depends on today takes its dates from here, never from literals
 * near the day it was written: the suite must pass on any day (CI runs it once more under libfaketime, on a
 * leap day late in the evening). Dates far in the past, whose outcome no date of the run changes, may stay
 * literal.
 */

/**
 * The variables that put a process on this one's clock: under libfaketime (the CI pass at a faked date) a
 * service a test spawns with an environment of its own must read the same faked time as the test and its
 * database. Empty on the real clock.
 */
export function clockEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name === 'LD_PRELOAD' || name.startsWith('FAKETIME')),
  );
}

/** Today's calendar date in a zone (UTC unless named), read from the clock the server reads. */
export function today(zone = 'UTC'): string {
  return todayIn(zone, new Date());
}

/** The calendar date `days` after (or, negative, before) today in a zone. */
export function daysFromToday(days: number, zone = 'UTC'): string {
  return addDays(today(zone), days);
}

/** The date `months` calendar months after today (clamped at month end, as the service steps months). */
export function monthsFromToday(months: number, zone = 'UTC'): string {
  return addMonths(today(zone), months);
}

/** The given day of the month `months` after this one (clamped at that month's end). */
export function dayOfMonthFromToday(months: number, day: number, zone = 'UTC'): string {
  const first = addMonths(`${today(zone).slice(0, 8)}01`, months);
  const last = endOfMonth(first);
  return day >= Number(last.slice(8)) ? last : `${first.slice(0, 8)}${String(day).padStart(2, '0')}`;
}

/** The first day of this year plus `years`, e.g. for a date certainly in the past or the future. */
export function yearFromToday(years: number, monthDay = '01-01', zone = 'UTC'): string {
  return `${Number(today(zone).slice(0, 4)) + years}-${monthDay}`;
}
