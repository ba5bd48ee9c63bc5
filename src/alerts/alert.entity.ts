import { Entity, Index, ManyToOne, type Opt, Property } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';

/**
 * A reminder definition: how long before (time_period × time_cycle) which date (alert_condition), at what
 * local time in which zone, for which kinds of record (alert_subs_type), through which channel (alert_type).
 * Id 1 is the system default (no user), seeded by migrations.
 */
@Entity({ tableName: 'alerts' })
export class Alert extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, nullable: true, deleteRule: 'cascade' })
  @Index()
  user?: number | null;

  @Property({ type: 'smallint', default: 0 })
  isDefault: Opt<number> = 0;

  @Property({ type: 'string', length: 200 })
  alertName!: string;

  @Property({ type: 'integer' })
  timePeriod!: number;

  @Property({ type: 'smallint', nullable: true })
  timeCycle?: number | null;

  /** Local time of day, `HH:MM:SS`. */
  @Property({ type: 'string', columnType: 'time(0)' })
  time!: string;

  @Property({ type: 'smallint' })
  alertCondition!: number;

  @Property({ type: 'string', length: 320, nullable: true })
  alertContact?: string | null;

  @Property({ type: 'smallint' })
  alertType!: number;

  @Property({ type: 'string', length: 64 })
  timezone!: string;

  @Property({ type: 'smallint' })
  alertSubsType!: number;
}
