import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';

import { Alert } from '../alerts/alert.entity';
import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';

/**
 * Where a user's reminders can go besides e-mail and webhooks: a push or chat service, by an Apprise-style
 * URL. The URL (it holds tokens and passwords) is kept encrypted; reads show it masked.
 */
@Entity({ tableName: 'notification_targets' })
export class NotificationTarget extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  user!: number;

  @Property({ type: 'string', length: 100 })
  name!: string;

  /** ntfy, gotify, tgram, discord, pover, slack, matrix, mailto or json. */
  @Property({ type: 'string', length: 10 })
  scheme!: string;

  /** The URL sealed with NOTIFY_SECRET_KEY (see SecretBox). */
  @Property({ type: 'text', hidden: true })
  sealedUrl!: string;

  /** The URL with its secrets replaced by ****. */
  @Property({ type: 'text' })
  maskedUrl!: string;

  /** A json:// target's signing secret, sealed; null for the other schemes. */
  @Property({ type: 'text', nullable: true, hidden: true })
  sealedSecret?: string | null;
}

/** The targets an alert definition sends its reminders to. */
@Entity({ tableName: 'alert_targets' })
export class AlertTarget {
  @ManyToOne(() => Alert, { mapToPk: true, primary: true, deleteRule: 'cascade' })
  alert!: number;

  @ManyToOne(() => NotificationTarget, { mapToPk: true, primary: true, deleteRule: 'cascade' })
  @Index()
  target!: number;
}
