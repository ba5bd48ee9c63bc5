import { Entity, Index, ManyToOne, type Opt, Property, Unique } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';
import { ProductCategory } from './product-category.entity';

/** A catalogue product: global (owner null) or private to the user who typed its name. */
@Entity({ tableName: 'products' })
@Index({
  name: 'products_name_trgm',
  expression: 'create index "products_name_trgm" on "products" using gin (lower("product_name") gin_trgm_ops)',
})
@Unique({
  name: 'products_owner_name_unique',
  expression:
    'create unique index "products_owner_name_unique" on "products" ("owner_id", "product_name") where "owner_id" is not null',
})
export class Product extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, nullable: true, deleteRule: 'cascade' })
  @Index()
  owner?: number | null;

  @Property({ type: 'integer', default: 1 })
  adminId: Opt<number> = 1;

  @ManyToOne(() => ProductCategory, { mapToPk: true, deleteRule: 'restrict' })
  category!: number;

  @Property({ type: 'string', length: 200 })
  productName!: string;

  @Property({ type: 'string', length: 200 })
  brandname!: string;

  @Property({ type: 'smallint', default: 1 })
  productType: Opt<number> = 1;

  @Property({ type: 'text', default: '' })
  description: Opt<string> = '';

  @Property({ type: 'text', nullable: true })
  url?: string | null;

  @Property({ type: 'text', nullable: true })
  urlApp?: string | null;

  @Property({ type: 'text', nullable: true })
  appUrl?: string | null;

  @Property({ type: 'text' })
  image!: string;

  @Property({ type: 'text' })
  favicon!: string;

  @Property({ type: 'smallint', default: 1 })
  status: Opt<number> = 1;

  @Property({ type: 'smallint', default: 1 })
  subLtd: Opt<number> = 1;

  @Property({ type: 'string', length: 4, nullable: true })
  launchYear?: string | null;

  @Property({ type: 'smallint', default: 1 })
  subPlatform: Opt<number> = 1;

  @Property({ type: 'smallint', default: 1 })
  pricingType: Opt<number> = 1;

  @Property({ type: 'string', length: 3, default: 'USD' })
  currencyCode: Opt<string> = 'USD';

  @Property({ type: 'string', length: 100, nullable: true, fieldName: 'price1_name' })
  price1Name?: string | null;

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true, fieldName: 'price1_value' })
  price1Value?: string | null;

  @Property({ type: 'string', length: 100, nullable: true, fieldName: 'price2_name' })
  price2Name?: string | null;

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true, fieldName: 'price2_value' })
  price2Value?: string | null;

  @Property({ type: 'string', length: 100, nullable: true, fieldName: 'price3_name' })
  price3Name?: string | null;

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true, fieldName: 'price3_value' })
  price3Value?: string | null;

  @Property({ type: 'integer', default: 0 })
  refundDays: Opt<number> = 0;

  @Property({ type: 'integer', default: 1 })
  billingFrequency: Opt<number> = 1;

  @Property({ type: 'smallint', default: 3 })
  billingCycle: Opt<number> = 3;

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true })
  ltdvalPrice?: string | null;

  @Property({ type: 'integer', nullable: true })
  ltdvalFrequency?: number | null;

  @Property({ type: 'smallint', nullable: true })
  ltdvalCycle?: number | null;

  @Property({ type: 'integer', default: 1 })
  createdBy: Opt<number> = 1;

  /** Its logo (a Logo's hash): fetched for a catalogue product, uploaded for a private one; null: none. */
  @Property({ type: 'string', length: 32, nullable: true })
  logoHash?: string | null;
}
