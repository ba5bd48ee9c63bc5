import { Entity, type Opt, Property, Unique } from '@mikro-orm/core';

import { BaseEntity } from '../platform/db/base.entity';
import { UtcTimestampType } from '../platform/db/timestamp.type';

/** role_id of an instance's admin (the first account, or one the CLI named); USER_ROLE of everyone else. */
export const ADMIN_ROLE = 1;
export const USER_ROLE = 2;
/** status of an account that may sign in; an admin sets DISABLED_STATUS to shut one out. */
export const ACTIVE_STATUS = 1;
export const DISABLED_STATUS = 0;

@Entity({ tableName: 'users' })
export class User extends BaseEntity {
  @Property({ type: 'string', length: 320 })
  @Unique()
  email!: string;

  @Property({ type: 'text', hidden: true, lazy: true })
  passwordHash!: string;

  @Property({ type: 'string', length: 200 })
  name!: string;

  @Property({ type: 'string', length: 100, default: '' })
  firstName: Opt<string> = '';

  @Property({ type: 'string', length: 100, default: '' })
  lastName: Opt<string> = '';

  @Property({ type: 'smallint', default: USER_ROLE })
  roleId: Opt<number> = USER_ROLE;

  @Property({ type: 'smallint', default: 1 })
  planId: Opt<number> = 1;

  @Property({ type: 'string', length: 2, default: 'US' })
  country: Opt<string> = 'US';

  @Property({ type: UtcTimestampType, nullable: true })
  emailVerifiedAt?: string | null;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property({ type: 'text', nullable: true })
  image?: string | null;

  @Property({ type: 'integer', nullable: true })
  createdBy?: number | null;

  @Property({ type: UtcTimestampType, nullable: true })
  resetAt?: string | null;

  @Property({ type: 'smallint', default: ACTIVE_STATUS })
  status: Opt<number> = ACTIVE_STATUS;

  /** Currency that base_value and totals are expressed in. */
  @Property({ type: 'string', length: 3, default: 'USD' })
  baseCurrency: Opt<string> = 'USD';

  /** IANA zone that decides "today" for records without their own zone. */
  @Property({ type: 'string', length: 64, default: 'UTC' })
  timezone: Opt<string> = 'UTC';

  /** The day weeks start on in calendars: its ISO number (1 Monday, 6 Saturday, 7 Sunday). */
  @Property({ type: 'smallint', default: 1 })
  weekStart: Opt<number> = 1;

  /** How the dashboard looks: 'system' (the device's light or dark), 'light' or 'dark'. */
  @Property({ type: 'string', length: 10, default: 'system' })
  theme: Opt<string> = 'system';

  /** The dashboard's language: 'browser' (the browser's) or a catalogue's code ('en', 'de', 'fr', 'es'). */
  @Property({ type: 'string', length: 10, default: 'browser' })
  language: Opt<string> = 'browser';
}
