import sql, { raw, type Sql } from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { dataVersionSql } from '../platform/db/data-version';
import type { DirectReads } from '../platform/db/direct-reads';
import { utcTimestamp } from '../platform/db/timestamps';
import { AccessToken, TokenKind, type TokenScope } from './access-token.entity';
import { ACTIVE_STATUS } from './user.entity';

export interface LiveToken {
  user_id: number;
  secret_hash: string;
  /** READ_ONLY scope: the token may not write. */
  read_only: boolean;
  /** A personal access token (not a sign-in's session). */
  personal: boolean;
  /**
   * Whether a use is to be written (see `touch`): its last use is more than a minute old, or a session's expiry
   * is more than an hour behind a fresh TOKEN_TTL_DAYS.
   */
  renew: boolean;
  /** Its user's data version (see the data_versions migration), read before anything the request reads. */
  data_version: string;
  /** Its user's settings (see Caller.settings). */
  timezone: string;
  base_currency: string;
  country: string;
}

/** What a new token is: a session (its device) or a personal token (its name, scope and fixed expiry). */
export type NewToken =
  | { kind: TokenKind.SESSION; device: string | null; expiresAt: string | null }
  | { kind: TokenKind.PERSONAL; name: string; scope: TokenScope; expiresAt: string | null };

/** The access_tokens table; the lookup and the write of a use are the hot path (every authenticated request). */
export class AccessTokenRepository {
  constructor(
    private readonly db: DataSource,
    private readonly reads: DirectReads,
  ) {}

  /** The token if it is neither revoked nor expired (`ttlDays` 0: sessions never expire). */
  async live(id: number, ttlDays: number): Promise<LiveToken | null> {
    const [row] = await this.reads.rows<LiveToken>(liveTokenSql(id, ttlDays));
    return row ?? null;
  }

  /** The check `live` makes, as a statement to run within a read of the token's user. */
  liveCheckSql(id: number, ttlDays: number): Sql {
    return liveTokenSql(id, ttlDays);
  }

  /** Writes a use: its last-used time, and a session's expiry pushed to `ttlDays` from now (0: none). */
  async touch(id: number, ttlDays: number): Promise<void> {
    await this.db.run(
      sql`update "access_tokens" set "last_used_at" = (now() at time zone 'utc'),
              "expires_at" = case when "kind" = 'SESSION' and ${ttlDays}::int > 0
                                  then (now() at time zone 'utc') + make_interval(days => ${ttlDays}::int)
                                  else "expires_at" end
           where "id" = ${id}`,
    );
  }

  /** A new token of the user's with the hash of its secret; answers it. */
  async issue(userId: number, secretHash: string, token: NewToken): Promise<AccessToken> {
    return this.db.insert(AccessToken, { user: userId, secretHash, ...token });
  }

  /**
   * Revokes every live token of the user's but `keepId` (null: all of them): revoked_at is what every process
   * checks on each request, so they get 401 from the next one on.
   */
  async revokeAllOf(userId: number, keepId: number | null): Promise<void> {
    await this.db.run(
      sql`update "access_tokens" set "revoked_at" = (now() at time zone 'utc')
           where "user_id" = ${userId} and "revoked_at" is null and "id" is distinct from ${keepId}::int`,
    );
  }

  /** The user's unrevoked tokens of a kind, newest first; sessions only while live (`ttlDays` as for `live`). */
  ofUser(userId: number, kind: TokenKind, ttlDays: number): Promise<AccessToken[]> {
    const expiry =
      kind === TokenKind.SESSION && ttlDays > 0
        ? { $or: [{ expiresAt: null }, { expiresAt: { $gt: utcTimestamp() } }] }
        : {};
    return this.db
      .em()
      .find(AccessToken, { user: userId, kind, revokedAt: null, ...expiry }, { orderBy: { id: 'desc' } });
  }

  /**
   * Revokes the user's unrevoked token (of `kind`, when given); answers it, or null when they have no such token
   * (another user's is left alone).
   */
  async revoke(userId: number, id: number, kind?: TokenKind): Promise<AccessToken | null> {
    const em = this.db.em();
    const token = await em.findOne(AccessToken, { id, user: userId, revokedAt: null, ...(kind ? { kind } : {}) });
    if (!token) return null;
    token.revokedAt = utcTimestamp();
    await em.flush();
    return token;
  }
}

/**
 * The token `id` if it is neither revoked nor expired (`ttlDays` 0: sessions never expire; a personal token's
 * expiry always holds) and its account is not disabled (disabling revokes the tokens too; this also stops one
 * a sign-in racing the disabling made), with its user's data version: a statement of its own, or the check a
 * read of the token's user runs in its own statement.
 */
function liveTokenSql(id: number, ttlDays: number): Sql {
  return sql`select t."user_id", t."secret_hash", t."scope" = 'READ_ONLY' as "read_only", t."kind" = 'PERSONAL' as "personal",
              coalesce(t."last_used_at" < (now() at time zone 'utc') - interval '1 minute', true)
                or (t."kind" = 'SESSION' and ${ttlDays}::int > 0
                    and coalesce(t."expires_at" < (now() at time zone 'utc') + make_interval(days => ${ttlDays}::int) - interval '1 hour', true)) as "renew",
              ${raw(dataVersionSql('t."user_id"'))} as "data_version",
              u."timezone", u."base_currency", u."country"
         from "access_tokens" t
         join "users" u on u."id" = t."user_id" and u."status" = ${ACTIVE_STATUS}
        where t."id" = ${id} and t."revoked_at" is null
          and ((t."kind" = 'SESSION' and ${ttlDays}::int = 0) or t."expires_at" is null or t."expires_at" > (now() at time zone 'utc'))`;
}
