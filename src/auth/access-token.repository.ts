import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

import { dataVersionSql } from '../platform/db/data-version';
import type { DirectReads } from '../platform/db/direct-reads';
import { pooled, run } from '../platform/db/statements';

export interface LiveToken {
  user_id: number;
  secret_hash: string;
  /** Whether its expiry is more than an hour behind a fresh TOKEN_TTL_DAYS (then a use pushes it on). */
  renew: boolean;
  /** Its user's data version (see the data_versions migration), read before anything the request reads. */
  data_version: string;
}

/** The access_tokens statements of the hot path (every authenticated request); the rest go through the unit of work. */
export class AccessTokenRepository {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly reads: DirectReads,
  ) {}

  /** The token if it is neither revoked nor expired (`ttlDays` 0: tokens never expire). */
  async live(id: number, ttlDays: number): Promise<LiveToken | null> {
    const [row] = await this.reads.rows<LiveToken>(
      `select "user_id", "secret_hash",
              coalesce("expires_at" < (now() at time zone 'utc') + make_interval(days => ?::int) - interval '1 hour', true) as "renew",
              ${dataVersionSql('t."user_id"')} as "data_version"
         from "access_tokens" t
        where "id" = ? and "revoked_at" is null and (?::int = 0 or "expires_at" is null or "expires_at" > (now() at time zone 'utc'))`,
      [ttlDays, id, ttlDays],
    );
    return row ?? null;
  }

  /** Pushes the token's expiry to `ttlDays` from now. */
  async slide(id: number, ttlDays: number): Promise<void> {
    await run(
      pooled(this.orm),
      `update "access_tokens" set "expires_at" = (now() at time zone 'utc') + make_interval(days => ?::int) where "id" = ?`,
      [ttlDays, id],
    );
  }
}
