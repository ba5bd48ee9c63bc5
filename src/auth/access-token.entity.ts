import { Entity, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from '../platform/db/timestamps';
import { User } from './user.entity';

/** A login session. The client holds `<id>|<secret>`; only the SHA-256 of the secret is stored. */
@Entity({ tableName: 'access_tokens' })
export class AccessToken {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  user!: number;

  @Property({ type: 'string', length: 64 })
  secretHash!: string;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;

  /** Pushed on as the token is used; null: never expires (TOKEN_TTL_DAYS=0). */
  @Property({ type: UtcTimestampType, nullable: true })
  expiresAt?: string | null;

  @Property({ type: UtcTimestampType, nullable: true })
  revokedAt?: string | null;
}
