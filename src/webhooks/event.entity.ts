import { Entity, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from '../platform/db/timestamps';

/** An outbox event, written in the same transaction as the change it describes. */
@Entity({ tableName: 'webhook_events' })
export class WebhookEvent {
  /** The Standard Webhooks `webhook-id`: the same on every attempt. */
  @PrimaryKey({ type: 'string', length: 40 })
  id!: string;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  user!: number;

  @Property({ type: 'string', length: 64 })
  topic!: string;

  @Property({ type: 'integer', nullable: true })
  subscriptionId?: number | null;

  /**
   * The record as the spec's Events section shows it, at the time of the event. Kept as the JSON text it was
   * written as (json, not jsonb): each delivery posts that text as it is, without parsing and printing it again.
   */
  @Property({ type: 'json', columnType: 'json' })
  payload!: Record<string, unknown>;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;
}
