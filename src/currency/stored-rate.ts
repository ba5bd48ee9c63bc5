import Decimal from 'decimal.js';

import { RATE_PRECISION, RATE_SCALE } from './exchange-rate.entity';

/** The smallest rate the table holds (one unit of its last place), and the largest. */
const SMALLEST = new Decimal(10).pow(-RATE_SCALE);
const LARGEST = new Decimal(10).pow(RATE_PRECISION - RATE_SCALE).minus(SMALLEST);
/** A rate as a file or a source writes it: a plain or exponent decimal number. */
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/**
 * The one rule of a rate written to the table (units of `currency` per US dollar), from a rates file or the
 * scheduled refresh alike: the rate as stored, rounded half up to the table's places, or why it cannot be
 * stored, naming the currency. It is checked after the rounding, so a rate that would be stored as 0 (every
 * conversion would then divide by zero) is refused, as are negative, non-finite and too large ones.
 */
export function storedRate(currency: string, value: unknown): { rate: string } | { problem: string } {
  const text = Decimal.isDecimal(value)
    ? value.toString()
    : typeof value === 'number' || typeof value === 'string'
      ? String(value).trim()
      : '';
  if (!NUMBER.test(text))
    return { problem: `${currency} needs a rate above 0 written as a number ("${String(value)}" is not).` };
  const exact = new Decimal(text);
  if (exact.isNegative() || /^[-+]?[0.]*(e|$)/i.test(text)) return { problem: `${currency} needs a rate above 0.` };
  const rounded = exact.toDecimalPlaces(RATE_SCALE, Decimal.ROUND_HALF_UP);
  if (rounded.isZero()) {
    return {
      problem: `${currency}'s rate ${text} rounds to 0 at ${RATE_SCALE} decimals: a rate must be at least ${SMALLEST.toFixed(RATE_SCALE)} per US dollar.`,
    };
  }
  if (rounded.gt(LARGEST))
    return {
      problem: `${currency}'s rate ${text} is over the largest rate kept, ${LARGEST.toFixed(RATE_SCALE)} per US dollar.`,
    };
  return { rate: rounded.toFixed(RATE_SCALE) };
}
