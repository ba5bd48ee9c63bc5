import { Entity, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from '../platform/db/timestamps';
import { User } from './user.entity';

/** A password-reset link: only the SHA-256 of its token is stored; it works once, until expires_at. */
@Entity({ tableName: 'password_resets' })
export class PasswordReset {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  user!: number;

  @Property({ type: 'string', length: 64, unique: true })
  tokenHash!: string;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;

  @Property({ type: UtcTimestampType })
  expiresAt!: string;

  /** When it was used, or voided by another reset or a password change; null while it may still be used. */
  @Property({ type: UtcTimestampType, nullable: true })
  usedAt?: string | null;
}
