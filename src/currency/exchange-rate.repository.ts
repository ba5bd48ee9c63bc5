import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';

/** How the last scheduled refresh went, with the as-of date of the rates there are. */
export interface RatesStatus {
  as_of: string | null;
  source_url: string | null;
  attempted_at: string | null;
  succeeded_at: string | null;
  error: string | null;
}

/** The exchange_rates and rates_refreshes tables. */
export class ExchangeRateRepository {
  constructor(private readonly db: DataSource) {}

  /** Whether the table has a rate of the currency. */
  async has(currency: string): Promise<boolean> {
    const row = await this.db.row<{ found: boolean }>(
      sql`select exists (select 1 from "exchange_rates" where "currency" = ${currency}) as "found"`,
    );
    return row!.found;
  }

  /** Sets a currency's rate (units per US dollar) as of a date, adding the currency when new. */
  async upsert(currency: string, perUsd: string, asOf: string): Promise<void> {
    await this.db.run(
      sql`insert into "exchange_rates" ("currency", "per_usd", "as_of") values (${currency}, ${perUsd}, ${asOf})
       on conflict ("currency") do update set "per_usd" = excluded."per_usd", "as_of" = excluded."as_of"`,
    );
  }

  /** Every rate kept, per US dollar. */
  async all(): Promise<Record<string, string>> {
    const rows = await this.db.rows<{ currency: string; per_usd: string }>(
      sql`select "currency", "per_usd" from "exchange_rates"`,
    );
    return Object.fromEntries(rows.map((row) => [row.currency, row.per_usd]));
  }

  /** Records an attempt of the refresh: succeeded (error null) or not (the last success is kept). */
  async recordAttempt(sourceUrl: string, error: string | null): Promise<void> {
    await this.db.run(
      sql`insert into "rates_refreshes" ("id", "source_url", "attempted_at", "succeeded_at", "error")
       values (1, ${sourceUrl}, now() at time zone 'utc', case when ${error}::text is null then now() at time zone 'utc' end, ${error})
       on conflict ("id") do update set "source_url" = excluded."source_url", "attempted_at" = excluded."attempted_at",
         "succeeded_at" = coalesce(excluded."succeeded_at", "rates_refreshes"."succeeded_at"), "error" = excluded."error"`,
    );
  }

  async status(): Promise<RatesStatus> {
    const row = await this.db.row<RatesStatus>(
      sql`select (select max("as_of") from "exchange_rates")::text as "as_of", r."source_url", r."attempted_at"::text as "attempted_at",
              r."succeeded_at"::text as "succeeded_at", r."error"
         from (select 1) one left join "rates_refreshes" r on r."id" = 1`,
    );
    return row!;
  }
}
