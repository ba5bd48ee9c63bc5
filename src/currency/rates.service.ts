import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import Decimal from 'decimal.js';
import { type FieldErrors, refuseFieldErrors } from '../platform/errors';
import { isCalendarDate } from '../platform/dates';
import { exchangeRateRepository } from './exchange-rate.repository';

/** A rates file: units of each currency per US dollar, as of a date. USD is always 1. */
export interface RatesFile {
  asOf: string;
  rates: Record<string, string | number>;
}

/**
 * Refreshes the exchange-rate table from a rates file, in one transaction: every listed currency is set (or
 * added); currencies not listed keep their rate. A file with any bad entry changes nothing.
 */
export async function importRates(orm: MikroORM<PostgreSqlDriver>, file: RatesFile): Promise<number> {
  const problems: FieldErrors = {};
  if (typeof file?.asOf !== 'string' || !isCalendarDate(file.asOf)) problems.asOf = ['asOf must be a calendar date (YYYY-MM-DD).'];
  const entries = Object.entries(file?.rates ?? {});
  if (entries.length === 0) problems.rates = ['rates must list at least one currency.'];
  for (const [currency, value] of entries) {
    let rate: Decimal | null;
    try {
      rate = new Decimal(value);
    } catch {
      rate = null;
    }
    if (!/^[A-Z]{3}$/.test(currency)) (problems.rates ??= []).push(`${currency} is not a 3-letter currency code.`);
    else if (!rate || !rate.isFinite() || rate.lte(0)) (problems.rates ??= []).push(`${currency} needs a rate above 0.`);
    else if (currency === 'USD' && !rate.eq(1)) (problems.rates ??= []).push('USD is 1 by definition.');
  }
  refuseFieldErrors(problems, 'The rates file is invalid');
  await orm.em.transactional(async (em) => {
    for (const [currency, value] of entries) {
      await exchangeRateRepository.upsert(em, currency, new Decimal(value).toFixed(8), file.asOf);
    }
  });
  return entries.length;
}
