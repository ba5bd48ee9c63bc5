import Decimal from 'decimal.js';

/** Money is decimal (decimal.js), never float arithmetic; amounts travel as strings. */

/** Units of each currency per one US dollar. */
export type RatesPerUsd = ReadonlyMap<string, string>;

/** `amount` in `from` expressed in `to`, through the dollar rates, rounded half-up to two decimals. */
export function convert(amount: string, from: string, to: string, rates: RatesPerUsd): string {
  if (from === to) return toMoneyString(amount);
  const fromRate = rates.get(from);
  const toRate = rates.get(to);
  if (!fromRate || !toRate) throw new RangeError(`no exchange rate for ${fromRate ? to : from}`);
  return new Decimal(amount).times(rateOf(toRate)).dividedBy(rateOf(fromRate)).toFixed(2, Decimal.ROUND_HALF_UP);
}

/** Parsed rates: a list converts every row through the same few rate texts. Cleared when it grows past any real table. */
const parsedRates = new Map<string, Decimal>();

function rateOf(text: string): Decimal {
  let rate = parsedRates.get(text);
  if (!rate) {
    if (parsedRates.size >= 1_000) parsedRates.clear();
    rate = new Decimal(text);
    parsedRates.set(text, rate);
  }
  return rate;
}

/** Already two decimals, as numeric(14,2) columns come from PostgreSQL. */
const MONEY_TEXT = /^-?\d+\.\d\d$/;

/** Two-decimal string of a stored numeric. */
export function toMoneyString(amount: string): string {
  return MONEY_TEXT.test(amount) ? amount : new Decimal(amount).toFixed(2, Decimal.ROUND_HALF_UP);
}
