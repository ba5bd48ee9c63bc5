import { Entity, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';

import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from '../platform/db/timestamps';
import { Subscription } from './subscription.entity';

/**
 * A record's price from a date on, in the record's currency. A record without rows has had one price; its
 * first row (written with its first change) holds the price it began with, from its payment_date.
 */
@Entity({ tableName: 'price_changes' })
@Unique({ properties: ['subscription', 'effectiveFrom'] })
export class PriceChange {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Subscription, { mapToPk: true, deleteRule: 'cascade' })
  subscription!: number;

  @Property({ type: 'date' })
  effectiveFrom!: string;

  @Property({ type: 'decimal', precision: 14, scale: 2 })
  price!: string;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;
}
