import sql, { raw, type Sql } from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { dataVersionSql } from '../platform/db/data-version';
import type { DirectReads } from '../platform/db/direct-reads';
import { utcTimestamp } from '../platform/db/timestamps';
import { AccessToken } from './access-token.entity';
import { ACTIVE_STATUS } from './user.entity';

export interface LiveToken {
  user_id: number;
  secret_hash: string;
  /** Whether its expiry is more than an hour behind a fresh TOKEN_TTL_DAYS (then a use pushes it on). */
  renew: boolean;
  /** Its user's data version (see the data_versions migration), read before anything the request reads. */
  data_version: string;
}

/** The access_tokens table; the lookup and the expiry push are the hot path (every authenticated request). */
export class AccessTokenRepository {
  constructor(
    private readonly db: DataSource,
    private readonly reads: DirectReads,
  ) {}

  /** The token if it is neither revoked nor expired (`ttlDays` 0: tokens never expire). */
  async live(id: number, ttlDays: number): Promise<LiveToken | null> {
    const [row] = await this.reads.rows<LiveToken>(liveTokenSql(id, ttlDays));
    return row ?? null;
  }

  /** The check `live` makes, as a statement to run within a read of the token's user. */
  liveCheckSql(id: number, ttlDays: number): Sql {
    return liveTokenSql(id, ttlDays);
  }

  /** Pushes the token's expiry to `ttlDays` from now. */
  async slide(id: number, ttlDays: number): Promise<void> {
    await this.db.run(
      sql`update "access_tokens" set "expires_at" = (now() at time zone 'utc') + make_interval(days => ${ttlDays}::int) where "id" = ${id}`,
    );
  }

  /** A new token of the user's with the hash of its secret; answers its id. */
  async issue(userId: number, secretHash: string, expiresAt: string | null): Promise<number> {
    return (await this.db.insert(AccessToken, { user: userId, secretHash, expiresAt })).id;
  }

  /** Revokes the user's token (another user's is left alone). */
  async revoke(userId: number, id: number): Promise<void> {
    await this.db.em().nativeUpdate(AccessToken, { id, user: userId }, { revokedAt: utcTimestamp() });
  }
}

/**
 * The token `id` if it is neither revoked nor expired (`ttlDays` 0: tokens never expire) and its account is not
 * disabled (disabling revokes the tokens too; this also stops one a sign-in racing the disabling made), with its user's data
 * version: a statement of its own, or the check a read of the token's user runs in its own statement.
 */
function liveTokenSql(id: number, ttlDays: number): Sql {
  return sql`select "user_id", "secret_hash",
              coalesce("expires_at" < (now() at time zone 'utc') + make_interval(days => ${ttlDays}::int) - interval '1 hour', true) as "renew",
              ${raw(dataVersionSql('t."user_id"'))} as "data_version"
         from "access_tokens" t
        where "id" = ${id} and "revoked_at" is null and (${ttlDays}::int = 0 or "expires_at" is null or "expires_at" > (now() at time zone 'utc'))
          and exists (select 1 from "users" u where u."id" = t."user_id" and u."status" = ${ACTIVE_STATUS})`;
}
