import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { User } from '../auth/user.entity';
import { ProductCategory } from '../catalogue/product-category.entity';
import { BaseEntity } from '../platform/db/base.entity';

/** A monthly budget in the owner's base currency: overall (no category) or for one category; one of each. */
@Entity({ tableName: 'budgets' })
@Index({
  name: 'budgets_user_category_unique',
  expression: 'create unique index "budgets_user_category_unique" on "budgets" ("user_id", coalesce("category_id", 0))',
})
export class Budget extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  user!: number;

  @ManyToOne(() => ProductCategory, { mapToPk: true, nullable: true, deleteRule: 'cascade' })
  category?: number | null;

  @Property({ type: 'decimal', precision: 14, scale: 2 })
  amount!: string;
}
