import { Entity, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from '../platform/db/timestamps';

/** A private iCalendar feed of a user's payments. Only its token's SHA-256 is stored; the URL is shown once. */
@Entity({ tableName: 'calendar_feeds' })
export class CalendarFeed {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  user!: number;

  @Property({ type: 'string', length: 100 })
  name!: string;

  /** Whether each event carries an alarm per alert definition of its record. */
  @Property({ type: 'boolean' })
  includeReminders!: boolean;

  @Property({ type: 'string', length: 64, unique: true })
  tokenHash!: string;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;

  @Property({ type: UtcTimestampType, nullable: true })
  revokedAt?: string | null;

  /** The owner's data version the feed's Last-Modified was last given for (null: never read), and that time. */
  @Property({ type: 'bigint', nullable: true })
  lastModifiedVersion?: string | null;

  @Property({ type: UtcTimestampType, nullable: true })
  lastModifiedAt?: string | null;
}
