import { CurrencyResolver, DateTimeResolver, TimeZoneResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

import { Connection } from '../platform/graphql/connection';
import { LocalDateScalar } from '../platform/graphql/scalars';
import { toIsoMicros } from '../platform/wire-formats';
import { type FieldRule, RECORD_FIELDS, REQUIRED_ON_CREATE, type ValueField } from './subscription.fields';
import type { SubscriptionInput } from './subscription.input';
import type { SubscriptionRecord } from './subscription.record';

/** A record as GraphQL shows it; property names are the read model's, field names camelCase. */
@ObjectType('SubscriptionRecord', { description: 'A subscription, lifetime purchase or add-on.' })
export class SubscriptionRecordView {
  @Field(() => Int) id!: number;
  @Field(() => Int, { name: 'productId' }) product_id!: number;
  @Field({ name: 'productName' }) product_name!: string;
  @Field(() => String, { name: 'brandName', nullable: true }) brandname!: string | null;
  @Field() image!: string;
  @Field(() => String, { nullable: true }) favicon!: string | null;
  @Field(() => String, { nullable: true }) homepage!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) note!: string | null;
  @Field(() => Int, { description: '1 Subscription, 2 Trial, 3 Lifetime' }) type!: number;
  @Field({ description: 'Decimal string, in currency' }) price!: string;
  @Field(() => CurrencyResolver, { name: 'currency' }) price_type!: string;
  @Field(() => Int, { description: '0 Once, 1 Recurring' }) recurring!: number;
  @Field(() => LocalDateScalar, { name: 'paymentDate', description: 'The anchor every payment date is computed from' })
  payment_date!: string;
  @Field(() => LocalDateScalar, { name: 'nextPaymentDate', nullable: true }) next_payment_date!: string | null;
  @Field(() => LocalDateScalar, { name: 'lastPaymentDate' }) payment_date_upd!: string;
  @Field(() => Int, { name: 'billingType', description: '1 fixed days, 2 calendar date' }) billing_type!: number;
  @Field(() => Int, { name: 'billingCycle', description: '1 daily, 2 weekly, 3 monthly, 4 yearly' })
  billing_cycle!: number;
  @Field(() => Int, { name: 'billingFrequency' }) billing_frequency!: number;
  @Field(() => Int, { description: '0 Draft, 1 Active, 2 Cancel, 3 Refund, 4 Expired' }) status!: number;
  @Field(() => Int, { name: 'refundDays', nullable: true }) refund_days!: number | null;
  @Field(() => LocalDateScalar, { name: 'refundDate', nullable: true }) refund_date!: string | null;
  // Output zones are plain strings: the TimeZone scalar revalidated every value (an eighth of a page's CPU).
  @Field({ description: 'IANA zone name' }) timezone!: string;
  @Field({ name: 'baseValue', description: 'The price in baseCurrency, decimal string' }) base_value!: string;
  @Field(() => CurrencyResolver, { name: 'baseCurrency' }) base_currency!: string;
  @Field(() => Int, { description: '0 (unset) to 10' }) rating!: number;
  @Field(() => Int, {
    name: 'alertId',
    description:
      "1 the system default alert, 0 no alert (always 0 for a household member: a shared record's alerts are its owner's)",
  })
  alert_id!: number;
  @Field(() => String, { name: 'discountVoucher', nullable: true }) discount_voucher!: string | null;
  @Field(() => String, { name: 'companyName', nullable: true }) company_name!: string | null;
  @Field(() => String, { name: 'ltdvalPrice', nullable: true, description: 'Lifetime value: a decimal string' })
  ltdval_price!: string | null;
  @Field(() => Int, { name: 'ltdvalCycle', nullable: true }) ltdval_cycle!: number | null;
  @Field(() => Int, { name: 'ltdvalFrequency', nullable: true }) ltdval_frequency!: number | null;
  @Field(() => LocalDateScalar, { name: 'expiryDate', nullable: true }) expiry_date!: string | null;
  @Field(() => LocalDateScalar, { name: 'contractExpiry', nullable: true }) contract_expiry!: string | null;
  @Field(() => Int, {
    name: 'contractNoticeDays',
    nullable: true,
    description: 'The last day to cancel is this many days before contractExpiry',
  })
  contract_notice_days!: number | null;
  @Field(() => Int, { name: 'mainRecordId', nullable: true, description: 'Set on add-ons' }) sub_id!: number | null;
  created_at!: string;
  /** The stored UTC timestamp as a DateTime (the stored form is not RFC 3339). */
  @Field(() => DateTimeResolver)
  get createdAt(): string {
    return toIsoMicros(this.created_at)!;
  }
  // Read model fields the resolver uses for the nested objects.
  /** The owner: who sees its alert set-up. */
  user_id!: number;
  folder_id!: number | null;
  folder_name!: string | null;
  folder_color!: string | null;
  folder_is_default!: number | null;
  category_id!: number | null;
  category_name!: string | null;
  category_user_id!: number | null;
  category_created_at!: string | null;
  payment_mode_id!: number | null;
  payment_mode_name!: string | null;
  product_product_name!: string;
  product_brandname!: string | null;
  product_category_id!: number;
  product_description!: string;
  sub_addon!: number;
}

/**
 * The record as an instance of its GraphQL class, made once: for a plain object type-graphql copies the
 * whole record into a new instance on every field resolver it runs (twice per record for a page with
 * product and folder).
 */
export function asRecordView(record: SubscriptionRecord): SubscriptionRecordView {
  // The read's row becomes the instance in place: copying its 80 fields was a twentieth of a page's CPU.
  return Object.setPrototypeOf(record, SubscriptionRecordView.prototype) as SubscriptionRecordView;
}

@ObjectType('SubscriptionConnection')
export class SubscriptionConnection extends Connection('Subscription', SubscriptionRecordView) {
  @Field(() => Int) totalCount!: number;
}

@ObjectType('CalendarEntry', { description: 'One payment date of one record.' })
export class CalendarEntryView {
  @Field(() => ID, { description: 'Stable for the same record and date' }) id!: number;
  @Field(() => LocalDateScalar) date!: string;
  @Field(() => SubscriptionRecordView) subscription!: SubscriptionRecordView;
}

export enum SubscriptionOrderField {
  PAYMENT_DATE = 'payment_date',
  PRODUCT_NAME = 'product_name',
  PRICE = 'price',
  CREATED_AT = 'created_at',
  STATUS = 'status',
  ID = 'id',
}
export enum OrderDirection {
  ASC = 'asc',
  DESC = 'desc',
}
registerEnumType(SubscriptionOrderField, { name: 'SubscriptionOrderField' });
registerEnumType(OrderDirection, { name: 'OrderDirection' });

@InputType()
export class SubscriptionOrder {
  @Field(() => SubscriptionOrderField) field!: SubscriptionOrderField;
  @Field(() => OrderDirection, { defaultValue: OrderDirection.ASC }) direction!: OrderDirection;
}

@InputType()
export class SubscriptionFilter {
  @Field(() => [Int], { nullable: true, description: '0 for records in no folder' }) folderIds?: number[];
  @Field(() => [Int], { nullable: true }) types?: number[];
  @Field(() => [Int], { nullable: true }) billingCycles?: number[];
  @Field(() => [Int], { nullable: true }) statuses?: number[];
  @Field(() => [Int], { nullable: true }) recurring?: number[];
  @Field(() => [Int], { nullable: true }) ratings?: number[];
  @Field(() => [Int], { nullable: true }) tagIds?: number[];
  @Field(() => [Int], { nullable: true }) paymentModeIds?: number[];
  @Field(() => [Int], { nullable: true, description: '0 for records with no alert' }) alertIds?: number[];
  @Field(() => [Int], { nullable: true }) categoryIds?: number[];
  @Field(() => LocalDateScalar, { nullable: true, description: 'Records whose payment date (the anchor) is this day' })
  paymentDate?: string;
}

/** Fields a record is changed by; every one optional on update. The value fields come from the field table, below. */
/** Typed as the field table's value fields; their GraphQL fields are decorated from RECORD_FIELDS below. */
const ValueFields = class {} as new () => Partial<Pick<SubscriptionInput, ValueField>>;

@InputType()
export class SubscriptionUpdateInput extends ValueFields {
  @Field(() => Int, { nullable: true, description: 'A catalogue product (or your own private product)' })
  productId?: number;
  @Field(() => String, { nullable: true, description: 'A product name: makes (or reuses) your private product' })
  productName?: string;
  @Field(() => Int, { nullable: true, description: '0 or null: no folder' }) folderId?: number | null;
  @Field(() => Int, { nullable: true, description: '0: no alert (no reminders)' }) alertId?: number;
  @Field(() => Int, { nullable: true }) categoryId?: number | null;
  @Field(() => Int, { nullable: true }) paymentModeId?: number | null;
  @Field(() => [String], { nullable: true, description: 'Tag ids or names (names are created)' }) tags?: string[];
}
/** Creating requires the fields REST requires (some with defaults here), decorated below. */
@InputType()
export class SubscriptionCreateInput extends SubscriptionUpdateInput {}

/** GraphQL's type of a field of the field table. */
function graphqlTypeOf(rule: FieldRule) {
  switch (rule.kind) {
    case 'code':
    case 'integer':
      return Int;
    case 'date':
      return LocalDateScalar;
    case 'currency':
      return CurrencyResolver;
    case 'zone':
      return TimeZoneResolver;
    default:
      return String;
  }
}

for (const field of RECORD_FIELDS) {
  const type = () => graphqlTypeOf(field.rule);
  Field(type, { nullable: true, description: field.description })(SubscriptionUpdateInput.prototype, field.name);
  if (REQUIRED_ON_CREATE.has(field.name)) {
    const defaults = field.graphqlDefault === undefined ? {} : { defaultValue: field.graphqlDefault };
    Field(type, { description: field.description, ...defaults })(SubscriptionCreateInput.prototype, field.name);
  }
}

@InputType()
export class AddonCreateInput {
  @Field(() => Int, { defaultValue: 3 }) type!: number;
  @Field(() => String) price!: string;
  @Field(() => CurrencyResolver) currency!: string;
  @Field(() => LocalDateScalar) paymentDate!: string;
  @Field(() => Int, { nullable: true, description: "The main record's status when omitted" }) status?: number;
  @Field(() => Int, { defaultValue: 1 }) recurring!: number;
  @Field(() => LocalDateScalar, { nullable: true }) refundDate?: string | null;
}

@ObjectType('PriceStep', { description: "A record's price from a date on (until the next step)." })
export class PriceStepView {
  @Field(() => LocalDateScalar) effectiveFrom!: string;
  @Field({ description: 'Decimal string, in currency' }) price!: string;
  @Field(() => CurrencyResolver) currency!: string;
}
