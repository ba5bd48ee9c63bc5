import type { EntityManager } from '@mikro-orm/postgresql';

import { ExchangeRate } from './exchange-rate.entity';

/** The one "currency is known" rule: a currency is usable when the exchange-rate table has it. Null when it does. */
export async function unknownCurrencyProblem(em: EntityManager, currency: string): Promise<string | null> {
  return (await em.findOne(ExchangeRate, { currency })) ? null : unknownCurrencyMessage(currency);
}

/** The field error of a currency the exchange-rate table does not have. */
export function unknownCurrencyMessage(currency: string): string {
  return `The currency ${currency} is not in the exchange-rate table.`;
}
