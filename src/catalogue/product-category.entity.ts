import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';

/** A product category: global (no user) or a user's own. */
@Entity({ tableName: 'product_categories' })
export class ProductCategory extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, nullable: true, deleteRule: 'cascade' })
  @Index()
  user?: number | null;

  @Property({ type: 'string', length: 100 })
  name!: string;
}
