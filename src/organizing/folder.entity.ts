import { Entity, ManyToOne, type Opt, Property, Unique } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';

@Entity({ tableName: 'folders' })
@Unique({ properties: ['user', 'name'] })
export class Folder extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  user!: number;

  @Property({ type: 'string', length: 100 })
  name!: string;

  @Property({ type: 'string', length: 20, nullable: true })
  color?: string | null;

  @Property({ type: 'smallint', default: 0 })
  isDefault: Opt<number> = 0;
}
