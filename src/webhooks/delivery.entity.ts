import { Entity, Enum, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { UtcTimestampType } from '../platform/db/timestamp.type';
import { BaseEntity } from '../platform/db/base.entity';
import { WebhookEndpoint } from './endpoint.entity';
import { WebhookEvent } from './event.entity';

export enum DeliveryStatus {
  PENDING = 'PENDING',
  SUCCEEDED = 'SUCCEEDED',
  FAILED = 'FAILED',
}

/** One event on its way to one endpoint; the relay picks rows whose next_attempt_at has come. */
@Entity({ tableName: 'webhook_deliveries' })
@Unique({ properties: ['event', 'endpoint'] })
@Index({ name: 'webhook_deliveries_due', properties: ['status', 'nextAttemptAt'] })
export class WebhookDelivery extends BaseEntity {
  @ManyToOne(() => WebhookEvent, { mapToPk: true, deleteRule: 'cascade' })
  event!: string;

  @ManyToOne(() => WebhookEndpoint, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  endpoint!: number;

  @Enum({ items: () => DeliveryStatus })
  status: Opt<DeliveryStatus> = DeliveryStatus.PENDING;

  @Property({ type: 'integer', default: 0 })
  attemptCount: Opt<number> = 0;

  @Property({ type: UtcTimestampType, nullable: true })
  nextAttemptAt?: string | null;

  @Property({ type: UtcTimestampType, nullable: true })
  completedAt?: string | null;
}
