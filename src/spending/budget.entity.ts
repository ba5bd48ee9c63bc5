import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';

import { Alert } from '../alerts/alert.entity';
import { User } from '../auth/user.entity';
import { ProductCategory } from '../catalogue/product-category.entity';
import { BaseEntity } from '../platform/db/base.entity';
import { UtcTimestampType } from '../platform/db/timestamp.type';

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

  /** The alert definition whose channels warn when next month's planned total exceeds the budget; none: no warning. */
  @ManyToOne(() => Alert, { mapToPk: true, nullable: true, deleteRule: 'set null' })
  alert?: number | null;

  /** YYYY-MM: the month last warned of (at most one warning per month; setting the budget again clears it). */
  @Property({ length: 7, nullable: true })
  warnedMonth?: string | null;

  /** When the sweep last compared it with next month's plan: each budget is checked at most hourly, the longest unchecked first. */
  @Property({ type: UtcTimestampType, nullable: true })
  checkedAt?: string | null;
}
