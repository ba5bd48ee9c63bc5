import { type Opt, PrimaryKey, Property } from '@mikro-orm/core';

import { UtcTimestampType } from './timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from './timestamps';

/** An integer id and the two UTC timestamps most tables carry. */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;

  @Property({
    type: UtcTimestampType,
    nullable: true,
    onCreate: () => utcTimestamp(),
    onUpdate: () => utcTimestamp(),
  })
  updatedAt?: string | null;
}
