import { DateTime } from 'luxon';

import { Cycle } from '../subscriptions/codes';

/**
 * Readers of the loose values other trackers and spreadsheets write: prices with currency symbols and
 * either decimal mark, billing periods in words, dates in the common orders, yes/no switches.
 */

/**
 * Currency symbols as Wallos seeds them for a new user (registration.php), by symbol; the ambiguous ones
 * ($, ¥, kr) list every currency that uses them, the first being the one read when nothing says otherwise.
 */
const SYMBOLS: Record<string, string[]> = {
  '€': ['EUR'],
  $: ['USD', 'AUD', 'CAD'],
  '¥': ['JPY', 'CNY'],
  лв: ['BGN'],
  Kč: ['CZK'],
  kr: ['DKK', 'SEK', 'ISK', 'NOK'],
  '£': ['GBP'],
  Ft: ['HUF'],
  zł: ['PLN'],
  lei: ['RON'],
  Fr: ['CHF'],
  '₽': ['RUB'],
  '₺': ['TRY'],
  R$: ['BRL'],
  HK$: ['HKD'],
  Rp: ['IDR'],
  '₪': ['ILS'],
  '₹': ['INR'],
  '₩': ['KRW'],
  Mex$: ['MXN'],
  RM: ['MYR'],
  NZ$: ['NZD'],
  '₱': ['PHP'],
  S$: ['SGD'],
  '฿': ['THB'],
  R: ['ZAR'],
  '₴': ['UAH'],
  NT$: ['TWD'],
};

export interface ReadPrice {
  /** A decimal string with a point, or null when the text holds no amount. */
  amount: string | null;
  /** The ISO code the text names or its symbol stands for; null when it names none. */
  currency: string | null;
  /** Set when a symbol stands for several currencies and one was chosen. */
  ambiguous?: { symbol: string; candidates: string[] };
}

/**
 * A price such as "$9.99", "9,99 €", "CHF 10", "1.234,50" or "12": the amount (the last of "." and "," with one
 * or two digits after it is the decimal mark; other marks group thousands) and the currency of its symbol or
 * code. `preferred` settles an ambiguous symbol when it is one of its currencies.
 */
export function readPrice(text: string, preferred: string | null): ReadPrice {
  const trimmed = text.trim();
  const numberMatch = /-?\d[\d.,'\s]*/.exec(trimmed);
  const amount = numberMatch ? normaliseAmount(numberMatch[0].trim()) : null;
  const marker = (numberMatch ? trimmed.replace(numberMatch[0], ' ') : trimmed).trim();
  if (marker === '') return { amount, currency: null };
  return { amount, ...currencyOfMarker(marker, preferred) };
}

/**
 * The currency a code ("eur") or symbol ("€", "$") names; `preferred` settles an ambiguous symbol when it is
 * one of its currencies. A marker that is neither is answered as it is (for the caller to refuse).
 */
export function currencyOfMarker(
  marker: string,
  preferred: string | null,
): Omit<ReadPrice, 'amount'> & { currency: string } {
  if (/^[A-Za-z]{3}$/.test(marker) && !SYMBOLS[marker]) return { currency: marker.toUpperCase() };
  const candidates = SYMBOLS[marker];
  if (!candidates) return { currency: marker };
  if (candidates.length === 1) return { currency: candidates[0] };
  const chosen = preferred && candidates.includes(preferred) ? preferred : candidates[0];
  return { currency: chosen, ambiguous: { symbol: marker, candidates } };
}

function normaliseAmount(text: string): string | null {
  const compact = text.replace(/[\s']/g, '');
  const lastMark = Math.max(compact.lastIndexOf('.'), compact.lastIndexOf(','));
  const decimals = lastMark < 0 ? '' : compact.slice(lastMark + 1);
  const isDecimalMark = lastMark >= 0 && decimals.length >= 1 && decimals.length <= 2;
  const whole = (isDecimalMark ? compact.slice(0, lastMark) : compact).replace(/[.,]/g, '');
  const amount = isDecimalMark ? `${whole}.${decimals}` : whole;
  return /^-?\d+(\.\d{1,2})?$/.test(amount) ? amount.replace(/^(-?)0+(?=\d)/, '$1') : null;
}

export interface ReadCycle {
  cycle: number;
  frequency: number;
}

const UNITS: Record<string, Cycle> = { day: Cycle.Daily, week: Cycle.Weekly, month: Cycle.Monthly, year: Cycle.Yearly };
const NAMED_PERIODS: Record<string, ReadCycle> = {
  daily: { cycle: Cycle.Daily, frequency: 1 },
  weekly: { cycle: Cycle.Weekly, frequency: 1 },
  biweekly: { cycle: Cycle.Weekly, frequency: 2 },
  fortnightly: { cycle: Cycle.Weekly, frequency: 2 },
  monthly: { cycle: Cycle.Monthly, frequency: 1 },
  bimonthly: { cycle: Cycle.Monthly, frequency: 2 },
  quarterly: { cycle: Cycle.Monthly, frequency: 3 },
  'half-yearly': { cycle: Cycle.Monthly, frequency: 6 },
  semiannually: { cycle: Cycle.Monthly, frequency: 6 },
  semiannual: { cycle: Cycle.Monthly, frequency: 6 },
  yearly: { cycle: Cycle.Yearly, frequency: 1 },
  annually: { cycle: Cycle.Yearly, frequency: 1 },
  annual: { cycle: Cycle.Yearly, frequency: 1 },
};

/**
 * A billing period in words: "Monthly", "Every 3 Months" (Wallos' export), "quarterly", "2 weeks", "year";
 * with `frequency`, a bare unit ("month") takes it. Null when the text is none of these.
 */
export function readCycle(text: string, frequency?: number): ReadCycle | null {
  const words = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (NAMED_PERIODS[words]) return NAMED_PERIODS[words];
  const match = /^(?:every )?(\d+)? ?(day|week|month|year)s?$/.exec(words) ?? /^per (day|week|month|year)$/.exec(words);
  if (!match) return null;
  const unit = match.length === 3 ? match[2] : match[1];
  const count = match.length === 3 && match[1] ? Number(match[1]) : (frequency ?? 1);
  return { cycle: UNITS[unit], frequency: count };
}

/** The order of day and month in dates written with slashes, when the file's dates are ambiguous. */
export type DateOrder = 'DMY' | 'MDY';

/**
 * A calendar date as YYYY-MM-DD from "2026-01-31", "2026-01-31 10:00:00", "31.01.2026", "31/01/2026" or
 * "01/31/2026": with slashes, a first part over 12 is the day and a second part over 12 is the day; otherwise
 * `order` decides, and without it the date is ambiguous (null, with the reason).
 */
export function readDate(text: string, order?: DateOrder): { date: string | null; problem?: string } {
  const trimmed = text.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+Z?)?$/.exec(trimmed);
  if (iso) return valid(DateTime.fromISO(iso[1]));
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(trimmed);
  if (dotted)
    return valid(DateTime.fromObject({ day: Number(dotted[1]), month: Number(dotted[2]), year: Number(dotted[3]) }));
  const slashed = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  if (!slashed) return { date: null, problem: `"${trimmed}" is not a date (write YYYY-MM-DD).` };
  const [first, second, year] = [Number(slashed[1]), Number(slashed[2]), Number(slashed[3])];
  const dayFirst = first > 12 ? true : second > 12 ? false : order === undefined ? null : order === 'DMY';
  if (dayFirst === null)
    return {
      date: null,
      problem: `"${trimmed}" could be day/month or month/day: give the file's date order (DMY or MDY).`,
    };
  return valid(
    DateTime.fromObject(dayFirst ? { day: first, month: second, year } : { day: second, month: first, year }),
  );
}

function valid(date: DateTime): { date: string | null; problem?: string } {
  return date.isValid ? { date: date.toISODate() } : { date: null, problem: 'The date does not exist.' };
}

const YES = new Set(['yes', 'y', 'true', '1', 'enabled', 'active', 'on']);
const NO = new Set(['no', 'n', 'false', '0', 'disabled', 'inactive', 'off', 'cancelled', 'canceled']);

/** A yes/no as spreadsheets and Wallos write it; null when it is neither. */
export function readSwitch(text: string): boolean | null {
  const word = text.trim().toLowerCase();
  return YES.has(word) ? true : NO.has(word) ? false : null;
}
