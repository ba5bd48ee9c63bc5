import { Collection, Entity, Index, ManyToMany, ManyToOne, type Opt, Property } from '@mikro-orm/core';

import { Alert } from '../alerts/alert.entity';
import { User } from '../auth/user.entity';
import { Product } from '../catalogue/product.entity';
import { ProductCategory } from '../catalogue/product-category.entity';
import { Folder } from '../organizing/folder.entity';
import { PaymentMode } from '../organizing/payment-mode.entity';
import { Tag } from '../organizing/tag.entity';
import { BaseEntity } from '../platform/db/base.entity';
import { UtcTimestampType } from '../platform/db/timestamp.type';

/**
 * A recurring subscription, a lifetime purchase or an add-on (sub_addon 1, sub_id the main record).
 * Product fields are copied from the catalogue at creation, so lists read one table.
 * Soft delete: deleted_at set hides the record from every read.
 */
@Entity({ tableName: 'subscriptions' })
@Index({
  name: 'subscriptions_user_live_payment_date',
  expression:
    'create index "subscriptions_user_live_payment_date" on "subscriptions" ("user_id", "payment_date", "id") where "deleted_at" is null',
})
@Index({ name: 'subscriptions_user_status', properties: ['user', 'status'] })
@Index({ name: 'subscriptions_user_status_next_payment', properties: ['user', 'status', 'nextPaymentDate'] })
@Index({
  name: 'subscriptions_search_trgm',
  expression:
    'create index "subscriptions_search_trgm" on "subscriptions" using gin ' +
    `(lower(coalesce("product_name", '') || ' ' || coalesce("brandname", '') || ' ' || coalesce("description", '') || ' ' || coalesce("note", '')) gin_trgm_ops)`,
})
export class Subscription extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  user!: number;

  @ManyToOne(() => Folder, { mapToPk: true, nullable: true, deleteRule: 'set null' })
  folder?: number | null;

  @ManyToOne(() => Product, { mapToPk: true, deleteRule: 'restrict' })
  product!: number;

  @ManyToOne(() => ProductCategory, { mapToPk: true, nullable: true, deleteRule: 'set null' })
  category?: number | null;

  /** null: no alert (alert_id 0 on the wire). */
  @ManyToOne(() => Alert, { mapToPk: true, nullable: true, default: 1, deleteRule: 'set default' })
  alert: Opt<number> | null = 1;

  @ManyToOne(() => PaymentMode, { mapToPk: true, nullable: true, deleteRule: 'set null' })
  paymentMode?: number | null;

  @ManyToOne(() => Subscription, { mapToPk: true, nullable: true, fieldName: 'sub_id', deleteRule: 'cascade' })
  @Index()
  mainRecord?: number | null;

  @ManyToMany({
    entity: () => Tag,
    pivotTable: 'subscription_tags',
    joinColumn: 'subscription_id',
    inverseJoinColumn: 'tag_id',
  })
  tags = new Collection<Tag>(this);

  @Property({ type: 'integer', nullable: true })
  platformId?: number | null;

  @Property({ type: 'smallint' })
  type!: number;

  @Property({ type: 'text' })
  image!: string;

  @Property({ type: 'text', nullable: true })
  favicon?: string | null;

  @Property({ type: 'string', length: 200 })
  productName!: string;

  @Property({ type: 'string', length: 200, nullable: true })
  brandname?: string | null;

  @Property({ type: 'smallint', nullable: true })
  productType?: number | null;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property({ type: 'decimal', precision: 14, scale: 2 })
  price!: string;

  /** Currency of the price (ISO 4217). */
  @Property({ type: 'string', length: 3 })
  priceType!: string;

  @Property({ type: 'smallint' })
  recurring!: number;

  /** The anchor every payment date is computed from. */
  @Property({ type: 'date' })
  paymentDate!: string;

  @Property({ type: 'date', nullable: true })
  paymentDateUpd?: string | null;

  /**
   * The next payment date as of the last write or sweep (null: none owed, or not known yet). Reads derive it
   * afresh; the column only finds the records due within a window (upcoming), and is never later than the
   * true next date, because dates only move forward.
   */
  @Property({ type: 'date', nullable: true })
  nextPaymentDate?: string | null;

  @Property({ type: 'date', nullable: true })
  expiryDate?: string | null;

  @Property({ type: 'date', nullable: true })
  contractExpiry?: string | null;

  /** Days of notice the contract asks for: the last day to cancel is that many days before contract_expiry. */
  @Property({ type: 'integer', nullable: true })
  contractNoticeDays?: number | null;

  @Property({ type: 'text', nullable: true })
  homepage?: string | null;

  @Property({ type: 'integer', default: 0 })
  payGatewayId: Opt<number> = 0;

  @Property({ type: 'text', nullable: true })
  note?: string | null;

  @Property({ type: 'string', length: 200, nullable: true })
  companyName?: string | null;

  @Property({ type: 'string', length: 200, nullable: true })
  discountVoucher?: string | null;

  @Property({ type: 'smallint', nullable: true })
  alertType?: number | null;

  @Property({ type: 'integer' })
  billingFrequency!: number;

  @Property({ type: 'smallint' })
  billingCycle!: number;

  @Property({ type: 'smallint' })
  billingType!: number;

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true })
  ltdvalPrice?: string | null;

  @Property({ type: 'integer', nullable: true })
  ltdvalFrequency?: number | null;

  @Property({ type: 'smallint', nullable: true })
  ltdvalCycle?: number | null;

  @Property({ type: 'smallint' })
  status!: number;

  @Property({ type: 'string', length: 64 })
  timezone!: string;

  @Property({ type: 'integer', nullable: true })
  refundDays?: number | null;

  @Property({ type: 'smallint', default: 0 })
  rating: Opt<number> = 0;

  @Property({ type: 'smallint', default: 0 })
  subAddon: Opt<number> = 0;

  @Property({ type: 'integer' })
  createdBy!: number;

  @Property({ type: UtcTimestampType, nullable: true })
  deletedAt?: string | null;

  /** The logo its owner uploaded (a Logo's hash); null: its product's, if any. */
  @Property({ type: 'string', length: 32, nullable: true })
  logoHash?: string | null;
}
