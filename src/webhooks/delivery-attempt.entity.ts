import { Entity, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from '../platform/db/timestamps';
import { WebhookDelivery } from './delivery.entity';

/** The record of one HTTP attempt of a delivery. */
@Entity({ tableName: 'webhook_delivery_attempts' })
export class DeliveryAttempt {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => WebhookDelivery, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  delivery!: number;

  @Property({ type: 'integer' })
  attemptNumber!: number;

  @Property({ type: 'integer', nullable: true })
  statusCode?: number | null;

  @Property({ type: 'integer' })
  durationMs!: number;

  /** The first 1 KB of the answer. */
  @Property({ type: 'text', nullable: true })
  responseExcerpt?: string | null;

  @Property({ type: 'text', nullable: true })
  error?: string | null;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;
}
