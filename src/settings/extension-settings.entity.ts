import { Entity, OneToOne, type Opt, Property } from '@mikro-orm/core';

import { User } from '../auth/user.entity';

/** Browser-extension settings, one row per user, created with the defaults on first read. */
@Entity({ tableName: 'extension_settings' })
export class ExtensionSettings {
  @OneToOne(() => User, { primary: true, mapToPk: true, deleteRule: 'cascade' })
  user!: number;

  @Property({ type: 'smallint', default: 0 })
  autoDetectSubscriptions: Opt<number> = 0;

  @Property({ type: 'smallint', default: 0 })
  browserNotifications: Opt<number> = 0;

  @Property({ type: 'integer', default: 3 })
  notifyBefore: Opt<number> = 3;
}
