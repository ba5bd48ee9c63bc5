import { Check, Entity, Enum, Index, ManyToOne, type Opt, Property, Unique } from '@mikro-orm/core';

import { BaseEntity } from '../platform/db/base.entity';
import { UtcTimestampType } from '../platform/db/timestamp.type';
import { WebhookEndpoint } from './endpoint.entity';
import { WebhookEvent } from './event.entity';

export enum DeliveryStatus {
  PENDING = 'PENDING',
  SUCCEEDED = 'SUCCEEDED',
  FAILED = 'FAILED',
}

/**
 * One event on its way to one webhook endpoint, or (a reminder's) to one notification target with the message
 * it sends; the relay picks rows whose next_attempt_at has come.
 */
@Entity({ tableName: 'webhook_deliveries' })
@Unique({ properties: ['event', 'endpoint'] })
@Unique({ properties: ['event', 'target'] })
@Check({ name: 'webhook_deliveries_one_receiver', expression: '("endpoint_id" is null) <> ("target_id" is null)' })
@Index({ name: 'webhook_deliveries_due', properties: ['status', 'nextAttemptAt'] })
export class WebhookDelivery extends BaseEntity {
  @ManyToOne(() => WebhookEvent, { mapToPk: true, deleteRule: 'cascade' })
  event!: string;

  @ManyToOne(() => WebhookEndpoint, { mapToPk: true, nullable: true, deleteRule: 'cascade' })
  @Index()
  endpoint?: number | null;

  // By name: the notifications feature builds on the delivery machinery, not the other way round.
  @ManyToOne('NotificationTarget', { mapToPk: true, nullable: true, deleteRule: 'cascade' })
  @Index()
  target?: number | null;

  /** What a notification target is sent (a NotificationMessage); null for webhook endpoints, which get the event. */
  @Property({ type: 'json', nullable: true })
  message?: unknown;

  @Enum({ items: () => DeliveryStatus })
  status: Opt<DeliveryStatus> = DeliveryStatus.PENDING;

  @Property({ type: 'integer', default: 0 })
  attemptCount: Opt<number> = 0;

  @Property({ type: UtcTimestampType, nullable: true })
  nextAttemptAt?: string | null;

  @Property({ type: UtcTimestampType, nullable: true })
  completedAt?: string | null;
}
