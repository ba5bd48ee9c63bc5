import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';

@Entity({ tableName: 'tags' })
@Unique({ properties: ['user', 'name'] })
export class Tag extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  user!: number;

  @Property({ type: 'string', length: 100 })
  name!: string;
}
