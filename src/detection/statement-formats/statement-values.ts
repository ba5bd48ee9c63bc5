import Decimal from 'decimal.js';

import { formatDate, isCalendarDate } from '../../platform/dates';
import { AppError } from '../../platform/errors';

/** What every statement reader shares: decoding the bytes, amounts, dates and errors that name the line. */

/** The text of a statement: UTF-8 when the bytes are valid UTF-8, otherwise Latin-1 (older bank exports). */
export function decodeStatement(bytes: Buffer): { text: string; encoding: 'utf-8' | 'latin1' } {
  let text: string;
  let encoding: 'utf-8' | 'latin1' = 'utf-8';
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = bytes.toString('latin1');
    encoding = 'latin1';
  }
  return { text: text.replace(/^\ufeff/, ''), encoding };
}

/** The refusal of a file for what one of its lines holds. */
export function lineError(line: number, problem: string): AppError {
  return AppError.badInput(`line ${line}: ${problem}`);
}

const PLAIN_DIGITS = /^\d+$/;

/**
 * A written amount as a two-decimal string with a dot: "1.234,56" with a decimal comma, "1,234.56" with a
 * dot; spaces, apostrophes, currency signs and codes are dropped, and a trailing minus or parentheses (as some banks
 * write debits) make it negative.
 */
export function parseAmount(text: string, decimalSeparator: ',' | '.', line: number): string {
  let written = text.replace(/[\s\u00a0\u202f'’€$£]/g, '').replace(/^[A-Z]{3}|[A-Z]{3}$/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(written)) [negative, written] = [true, written.slice(1, -1)];
  if (/^[-+]/.test(written)) [negative, written] = [written.startsWith('-'), written.slice(1)];
  else if (written.endsWith('-')) [negative, written] = [true, written.slice(0, -1)];
  const groupSeparator = decimalSeparator === ',' ? '.' : ',';
  const [whole, fraction, ...extra] = written.split(decimalSeparator);
  const grouped = new RegExp(`^\\d{1,3}(\\${groupSeparator}\\d{3})+$`);
  const wholeValid = PLAIN_DIGITS.test(whole) || grouped.test(whole) || (whole === '' && fraction !== undefined);
  if (extra.length > 0 || !wholeValid || (fraction !== undefined && !/^\d*$/.test(fraction))) {
    throw lineError(line, `the amount "${text}" is not a number`);
  }
  const value = new Decimal(`${whole.split(groupSeparator).join('') || '0'}.${fraction || '0'}`);
  return (negative ? value.negated() : value).toFixed(2, Decimal.ROUND_HALF_UP).replace(/^-(0\.00)$/, '$1');
}

/** YYYY-MM-DD of the parts, or null when they are not a real calendar date (31.02. is not). */
export function calendarDate(year: number, month: number, day: number): string | null {
  const text = formatDate({ year, month, day });
  return isCalendarDate(text) ? text : null;
}

/** A four-digit year of a two-digit one (statements are of this century). */
export function fullYear(written: string): number {
  return written.length === 2 ? 2000 + Number(written) : Number(written);
}

/** The 1-based line of each offset in the text, for readers that find records by searching the whole text. */
export function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return (offset) => {
    let [low, high] = [0, starts.length - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

/**
 * Line breaks (within a quoted cell, an XML element's indentation) as one space, the ends trimmed. Runs of
 * spaces inside the text stay: card texts pad the merchant before its city, which tells the city apart.
 */
export function singleSpaced(text: string): string {
  return text
    .replace(/[ \t]*[\r\n]+[ \t]*/g, ' ')
    .replace(/\t/g, ' ')
    .trim();
}
