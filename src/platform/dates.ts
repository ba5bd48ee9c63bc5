/** Calendar dates (`YYYY-MM-DD`), never instants: the one place that parses, formats and steps them. */

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/*
 * Reads list every record's payment dates, so this module works on numbers (day numbers since 1970-01-01 and
 * year/month/day) and formats a text only for the answer: parsing and formatting per step were a fifth of a
 * list's CPU.
 */

const DIGIT_0 = 48;

/** The date as numbers, or null when the text is not a real calendar date (2025-02-30 is not). */
export function parseDate(text: string): CalendarDate | null {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return null;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** The decimal number in text[from, to), or -1 when a character is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The last date the service stores or computes (PostgreSQL's date goes further, ISO's four-digit year does not). */
export const LAST_DATE = '9999-12-31';

/** Whether the date `days` after `text` (a calendar date) is still on or before LAST_DATE. */
export function staysInRange(text: string, days: number): boolean {
  return epochDay(text) + days <= epochDay(LAST_DATE);
}

/** The last day of the date's month. */
export function endOfMonth(text: string): string {
  const { year, month } = mustParse(text);
  return formatDate({ year, month, day: daysInMonth(year, month) });
}

export function isCalendarDate(text: string): boolean {
  return parseDate(text) !== null;
}

export function mustParse(text: string): CalendarDate {
  const date = parseDate(text);
  if (!date) throw new RangeError(`not a calendar date: ${text}`);
  return date;
}

export function formatDate({ year, month, day }: CalendarDate): string {
  return `${year < 1000 ? String(year).padStart(4, '0') : year}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1];
}

/** Day number since 1970-01-01 of a proleptic Gregorian date (the days-from-civil algorithm). */
export function dayNumber({ year, month, day }: CalendarDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The date of a day number (the civil-from-days algorithm, the inverse of dayNumber). */
function dateOfDayNumber(days: number): CalendarDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthPart = Math.floor((5 * dayOfYear + 2) / 153);
  const month = monthPart < 10 ? monthPart + 3 : monthPart - 9;
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * monthPart + 2) / 5) + 1,
  };
}

/** Days since 1970-01-01 of a calendar date (dates only: no zone is involved). */
export function epochDay(text: string): number {
  return dayNumber(mustParse(text));
}

export function fromEpochDay(days: number): string {
  return formatDate(dateOfDayNumber(days));
}

export function addDays(text: string, days: number): string {
  return fromEpochDay(epochDay(text) + days);
}

/** Whole months after a date, keeping the day, clamped to the last day of a shorter month. */
export function monthsAfter({ year, month, day }: CalendarDate, months: number): CalendarDate {
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12 + 1;
  return { year: targetYear, month: targetMonth, day: Math.min(day, daysInMonth(targetYear, targetMonth)) };
}

/** Adds whole months keeping the day, clamped to the last day of a shorter month. */
export function addMonths(text: string, months: number): string {
  return formatDate(monthsAfter(mustParse(text), months));
}

const MINUTE_MS = 60_000;

/** Per zone: its formatter (costly to build), and the date it gave for the last minute asked. */
const zoneDays = new Map<string, { formatter: Intl.DateTimeFormat; minute: number; date: string }>();

/**
 * Today's date in an IANA zone. Zones' offsets are whole minutes, so the date is the same through a minute:
 * it is formatted (~2 us through Intl) once per zone and minute, not for every record a request reads.
 */
export function todayIn(timezone: string, now: Date = new Date()): string {
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  let day = zoneDays.get(timezone);
  if (day?.minute === minute) return day.date;
  const formatter =
    day?.formatter ??
    new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const parts = formatter.formatToParts(now);
  const value = (type: string) => parts.find((part) => part.type === type)!.value;
  day = { formatter, minute, date: `${value('year')}-${value('month')}-${value('day')}` };
  zoneDays.set(timezone, day);
  return day.date;
}

let zones: Set<string> | undefined;

/** Whether the name is in the runtime's list of IANA zones (UTC included). */
export function isTimeZone(name: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);
  return zones.has(name);
}
