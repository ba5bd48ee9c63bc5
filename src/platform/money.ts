import Decimal from 'decimal.js';

/** Money is decimal (decimal.js, or numeric in SQL), never float arithmetic; amounts travel as strings. */

/** Already two decimals, as numeric(14,2) columns come from PostgreSQL. */
const MONEY_TEXT = /^-?\d+\.\d\d$/;

/** Two-decimal string of a stored numeric. */
export function toMoneyString(amount: string): string {
  return MONEY_TEXT.test(amount) ? amount : new Decimal(amount).toFixed(2, Decimal.ROUND_HALF_UP);
}
