import type { EntityManager } from '@mikro-orm/postgresql';
import { run } from '../platform/db/statements';

/** The exchange_rates statement beyond the unit of work's. */
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
};
