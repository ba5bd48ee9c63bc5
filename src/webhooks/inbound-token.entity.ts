import { Entity, Enum, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from '../platform/db/timestamps';

export enum InboundTokenKind {
  /** May only create records. */
  CREATE = 'CREATE',
  /** May update, delete, refund and cancel records. */
  MANAGE = 'MANAGE',
}

/** A token addressing the inbound webhook path. Only its SHA-256 is stored; it is shown once. */
@Entity({ tableName: 'inbound_webhook_tokens' })
export class InboundWebhookToken {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  user!: number;

  @Enum({ items: () => InboundTokenKind })
  kind!: InboundTokenKind;

  @Property({ type: 'string', length: 64, unique: true })
  tokenHash!: string;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;

  @Property({ type: UtcTimestampType, nullable: true })
  lastUsedAt?: string | null;

  @Property({ type: UtcTimestampType, nullable: true })
  revokedAt?: string | null;
}
