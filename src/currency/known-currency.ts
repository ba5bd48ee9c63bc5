import type { StatementTarget } from '../platform/db/statements';
import { ExchangeRateRepository, exchangeRatesOn } from './exchange-rate.repository';

/**
 * The one "currency is known" rule: a currency is usable when the exchange-rate table has it. Null when it
 * does. (Subscriptions still passes the ORM handle of its transaction instead of the repository.)
 */
export async function unknownCurrencyProblem(
  rates: ExchangeRateRepository | StatementTarget,
  currency: string,
): Promise<string | null> {
  const known = await (rates instanceof ExchangeRateRepository ? rates : exchangeRatesOn(rates)).has(currency);
  return known ? null : unknownCurrencyMessage(currency);
}

/** The field error of a currency the exchange-rate table does not have. */
export function unknownCurrencyMessage(currency: string): string {
  return `The currency ${currency} is not in the exchange-rate table.`;
}
