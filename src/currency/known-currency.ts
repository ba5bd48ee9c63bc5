import type { ExchangeRateRepository } from './exchange-rate.repository';

/**
 * The one "currency is known" rule: a currency is usable when the exchange-rate table has it. Null when it
 * does.
 */
export async function unknownCurrencyProblem(rates: ExchangeRateRepository, currency: string): Promise<string | null> {
  const known = await rates.has(currency);
  return known ? null : unknownCurrencyMessage(currency);
}

/** The field error of a currency the exchange-rate table does not have. */
export function unknownCurrencyMessage(currency: string): string {
  return `The currency ${currency} is not in the exchange-rate table.`;
}
