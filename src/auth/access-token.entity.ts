import { Entity, Enum, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from '../platform/db/timestamps';
import { User } from './user.entity';

export enum TokenKind {
  /** Issued by a sign-in (login, sign-up): its expiry slides with use (TOKEN_TTL_DAYS). */
  SESSION = 'SESSION',
  /** Made by its owner for a script or client, named: its expiry, if any, is fixed. */
  PERSONAL = 'PERSONAL',
}

export enum TokenScope {
  READ_ONLY = 'READ_ONLY',
  READ_WRITE = 'READ_WRITE',
}

/**
 * An access token: a sign-in's session or a personal access token. The client holds `<id>|<secret>`; only the
 * SHA-256 of the secret is stored.
 */
@Entity({ tableName: 'access_tokens' })
export class AccessToken {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  user!: number;

  @Property({ type: 'string', length: 64 })
  secretHash!: string;

  @Enum({ items: () => TokenKind, default: TokenKind.SESSION })
  kind!: Opt<TokenKind>;

  /** A personal token's name (1 to 100 characters); null for a session. */
  @Property({ type: 'string', length: 100, nullable: true })
  name?: string | null;

  @Enum({ items: () => TokenScope, default: TokenScope.READ_WRITE })
  scope!: Opt<TokenScope>;

  /** A session's User-Agent at sign-in, trimmed; null for a personal token or when none was sent. */
  @Property({ type: 'string', length: 255, nullable: true })
  device?: string | null;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;

  /** Written with the request that uses it, at most about once a minute (see AccessTokenRepository.touch). */
  @Property({ type: UtcTimestampType, nullable: true })
  lastUsedAt?: string | null;

  /** A session's is pushed on as it is used, a personal token's is fixed; null: never expires. */
  @Property({ type: UtcTimestampType, nullable: true })
  expiresAt?: string | null;

  @Property({ type: UtcTimestampType, nullable: true })
  revokedAt?: string | null;
}
