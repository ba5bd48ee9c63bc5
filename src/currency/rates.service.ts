import Decimal from 'decimal.js';

import type { Config } from '../platform/config';
import { isCalendarDate } from '../platform/dates';
import { todayIn } from '../platform/dates';
import { DataSource, type Transactions } from '../platform/db/data-source';
import { type FieldErrors, refuseFieldErrors } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { ExchangeRateRepository, type RatesStatus } from './exchange-rate.repository';
import { perUsdRates, RatesSourceError, readReferenceRates } from './reference-rates';
import { storedRate } from './stored-rate';

export type { RatesStatus };

/** How long the source may take, and how much it may send (the ECB's file is 1.5 KB). */
const SOURCE_TIMEOUT_MS = 15_000;
const SOURCE_MAX_BYTES = 1024 * 1024;

/** A rates file: units of each currency per US dollar, as of a date. USD is always 1. */
export interface RatesFile {
  asOf: string;
  rates: Record<string, string | number>;
}

/** Refreshes the exchange-rate table of the ORM's database from a rates file (the CLI's import), as applyRates does. */
export function importRates(orm: DataSource['orm'], file: RatesFile): Promise<number> {
  const data = new DataSource(orm);
  return applyRates(data, new ExchangeRateRepository(data), file);
}

/**
 * Refreshes the exchange-rate table from a rates file, in one transaction: every listed currency is set (or
 * added); currencies not listed keep their rate. A file with any bad entry (a rate storedRate refuses among
 * them) changes nothing.
 */
async function applyRates(transactions: Transactions, rates: ExchangeRateRepository, file: RatesFile): Promise<number> {
  const problems: FieldErrors = {};
  if (typeof file?.asOf !== 'string' || !isCalendarDate(file.asOf))
    problems.asOf = ['asOf must be a calendar date (YYYY-MM-DD).'];
  const entries = Object.entries(file?.rates ?? {});
  if (entries.length === 0) problems.rates = ['rates must list at least one currency.'];
  const stored: Array<[string, string]> = [];
  for (const [currency, value] of entries) {
    const checked = storedRate(currency, value);
    if (!/^[A-Z]{3}$/.test(currency)) (problems.rates ??= []).push(`${currency} is not a 3-letter currency code.`);
    else if ('problem' in checked) (problems.rates ??= []).push(checked.problem);
    else if (currency === 'USD' && !new Decimal(checked.rate).eq(1))
      (problems.rates ??= []).push('USD is 1 by definition.');
    else stored.push([currency, checked.rate]);
  }
  refuseFieldErrors(problems, 'The rates file is invalid');
  await transactions.transaction(async () => {
    for (const [currency, rate] of stored) await rates.upsert(currency, rate, file.asOf);
  });
  return entries.length;
}

/**
 * The scheduled refresh from a keyless public source (RATES_URL): fetched, read, checked against the rates
 * kept, and applied as a rates file is, in one transaction with its as-of date. A failure keeps the old
 * rates; it is logged and recorded for /readyz and the metrics, never thrown.
 */
export class RatesRefreshService {
  constructor(
    private readonly transactions: Transactions,
    private readonly rates: ExchangeRateRepository,
    private readonly config: Pick<Config, 'ratesUrl'>,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
    private readonly timeoutMs = SOURCE_TIMEOUT_MS,
  ) {}

  /** One refresh; answers the error that kept the old rates, or null. */
  async refresh(): Promise<string | null> {
    let error: string | null = null;
    try {
      const source = readReferenceRates(await this.fetchSource());
      const file = perUsdRates(source, await this.rates.all(), todayIn('UTC', this.clock()));
      await applyRates(this.transactions, this.rates, file);
      this.logger.info({ asOf: file.asOf, currencies: Object.keys(file.rates).length }, 'exchange rates refreshed');
    } catch (caught) {
      const { name, message } = caught as Error;
      error = name === 'TimeoutError' ? `the source did not answer within ${this.timeoutMs} ms` : message;
      this.logger.warn({ err: caught, url: this.config.ratesUrl }, 'exchange-rate refresh failed; the old rates stay');
    }
    await this.rates.recordAttempt(this.config.ratesUrl, error).catch((caught: unknown) => {
      this.logger.warn({ err: caught }, 'could not record the exchange-rate refresh');
    });
    return error;
  }

  status(): Promise<RatesStatus> {
    return this.rates.status();
  }

  /** The currencies the exchange-rate table has (the known ones: records may be paid in them), by code. */
  async currencies(): Promise<string[]> {
    return Object.keys(await this.rates.all()).sort();
  }

  private async fetchSource(): Promise<string> {
    const response = await fetch(this.config.ratesUrl, {
      signal: AbortSignal.timeout(this.timeoutMs),
      headers: { accept: 'application/xml, application/json' },
    });
    if (!response.ok) throw new RatesSourceError(`the source answered ${response.status}`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > SOURCE_MAX_BYTES) throw new RatesSourceError(`the answer is over ${SOURCE_MAX_BYTES / 1024} KB`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
