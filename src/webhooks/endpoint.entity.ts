import { Entity, Index, ManyToOne, type Opt, Property } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';

/** A customer endpoint that outbound events are delivered to. The secret signs deliveries (shown once). */
@Entity({ tableName: 'webhook_endpoints' })
export class WebhookEndpoint extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  user!: number;

  @Property({ type: 'text' })
  url!: string;

  /** Topics this endpoint receives; empty means the five change topics (reminder topics must be listed). */
  @Property({ type: 'array', columnType: 'text[]', default: '{}' })
  events: Opt<string[]> = [];

  @Property({ type: 'text', hidden: true, lazy: true })
  secret!: string;

  @Property({ type: 'boolean', default: true })
  enabled: Opt<boolean> = true;
}
