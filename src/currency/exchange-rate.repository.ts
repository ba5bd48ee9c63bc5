import type { EntityManager } from '@mikro-orm/postgresql';

import { rowsOf, run, type StatementTarget } from '../platform/db/statements';

/** How the last scheduled refresh went, with the as-of date of the rates there are. */
export interface RatesStatus {
  as_of: string | null;
  source_url: string | null;
  attempted_at: string | null;
  succeeded_at: string | null;
  error: string | null;
}

/** The exchange_rates and rates_refreshes statements beyond the unit of work's. */
export const exchangeRateRepository = {
  /** Sets a currency's rate (units per US dollar) as of a date, adding the currency when new. */
  async upsert(em: EntityManager, currency: string, perUsd: string, asOf: string): Promise<void> {
    await run(
      em,
      `insert into "exchange_rates" ("currency", "per_usd", "as_of") values (?, ?, ?)
       on conflict ("currency") do update set "per_usd" = excluded."per_usd", "as_of" = excluded."as_of"`,
      [currency, perUsd, asOf],
    );
  },

  /** Every rate kept, per US dollar. */
  async all(em: StatementTarget): Promise<Record<string, string>> {
    const rows = await rowsOf<{ currency: string; per_usd: string }>(
      em,
      `select "currency", "per_usd" from "exchange_rates"`,
      [],
    );
    return Object.fromEntries(rows.map((row) => [row.currency, row.per_usd]));
  },

  /** Records an attempt of the refresh: succeeded (error null) or not (the last success is kept). */
  async recordAttempt(em: StatementTarget, sourceUrl: string, error: string | null): Promise<void> {
    await run(
      em,
      `insert into "rates_refreshes" ("id", "source_url", "attempted_at", "succeeded_at", "error")
       values (1, ?, now() at time zone 'utc', case when ?::text is null then now() at time zone 'utc' end, ?)
       on conflict ("id") do update set "source_url" = excluded."source_url", "attempted_at" = excluded."attempted_at",
         "succeeded_at" = coalesce(excluded."succeeded_at", "rates_refreshes"."succeeded_at"), "error" = excluded."error"`,
      [sourceUrl, error, error],
    );
  },

  async status(em: StatementTarget): Promise<RatesStatus> {
    const [row] = await rowsOf<RatesStatus>(
      em,
      `select (select max("as_of") from "exchange_rates")::text as "as_of", r."source_url", r."attempted_at"::text as "attempted_at",
              r."succeeded_at"::text as "succeeded_at", r."error"
         from (select 1) one left join "rates_refreshes" r on r."id" = 1`,
      [],
    );
    return row;
  },
};
