import Decimal from 'decimal.js';

/** Money is decimal (decimal.js, or numeric in SQL), never float arithmetic; amounts travel as strings. */

/** Already two decimals, as numeric(14,2) columns come from PostgreSQL. */
const MONEY_TEXT = /^-?\d+\.\d\d$/;

/** Two-decimal string of a stored numeric. */
export function toMoneyString(amount: string): string {
  return MONEY_TEXT.test(amount) ? amount : new Decimal(amount).toFixed(2, Decimal.ROUND_HALF_UP);
}

/** A decimal amount as exact integer cents (it has at most two decimals). */
export function toCents(amount: string): bigint {
  return BigInt(new Decimal(amount).times(100).toFixed(0));
}

/** Two decimals of exact cents. */
export function centsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const magnitude = cents < 0n ? -cents : cents;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
}
