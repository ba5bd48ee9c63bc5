import { CurrencyResolver, DateTimeResolver, TimeZoneResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

import { Connection } from '../platform/graphql/connection';
import { toGlobalId } from '../platform/graphql/global-ids';
import { DecimalScalar, Money } from '../platform/graphql/money';
import { Node } from '../platform/graphql/node';
import { renameUserErrorFields } from '../platform/graphql/payloads';
import { LocalDateScalar } from '../platform/graphql/scalars';
import { logoPath } from '../platform/logo-path';
import { BillingCycle, BillingType, RecordStatus, RecordType, Recurring } from '../platform/record-enums';
import { toIsoMicros } from '../platform/wire-formats';
import { type FieldRule, RECORD_FIELDS, REQUIRED_ON_CREATE, type ValueField } from './subscription.fields';
import type { SubscriptionInput } from './subscription.input';
import type { SubscriptionRecord } from './subscription.record';

/** The GraphQL type name of a record, in its global ids. */
export const RECORD_TYPE_NAME = 'SubscriptionRecord';

/**
 * A record as GraphQL shows it; property names are the read model's, field names camelCase. Codes are the
 * enums' internal values (the integers), so they are answered straight from the row; money is a getter.
 */
@ObjectType(RECORD_TYPE_NAME, { implements: Node, description: 'A subscription, trial, lifetime purchase or add-on.' })
export class SubscriptionRecordView {
  id!: number;
  product_id!: number;
  @Field({ name: 'productName', description: 'The name of its product, as the record shows it.' })
  product_name!: string;
  @Field(() => String, { name: 'brandName', nullable: true, description: "Its product's brand; null when none." })
  brandname!: string | null;
  @Field({ description: 'The URL of its image (a default one when its product has none).' }) image!: string;
  @Field(() => String, { nullable: true, description: 'The URL of its favicon; null when none.' })
  favicon!: string | null;
  /** Its logo's hash: its own upload, else its product's (read model). */
  logo_hash!: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      "Its logo, served by this server (a path on its origin): the one you uploaded, else its product's fetched one; null when none (draw a monogram).",
  })
  get logo(): string | null {
    return logoPath(this.logo_hash);
  }
  @Field(() => String, { nullable: true, description: "The product's home page; null when unknown." })
  homepage!: string | null;
  @Field(() => String, { nullable: true, description: 'Your description of it; null when none.' })
  description!: string | null;
  @Field(() => String, { nullable: true, description: 'Your note on it; null when none.' }) note!: string | null;
  @Field(() => RecordType, { description: 'What it is: a subscription, a trial or a lifetime purchase.' })
  type!: number;
  /** Decimal string, in price_type. */
  price!: string;
  price_type!: string;
  @Field(() => Money, {
    name: 'price',
    description: 'What one payment costs, in the currency it is paid in (the one in effect today).',
  })
  get priceMoney(): Money {
    return { amount: this.price, currency: this.price_type };
  }
  @Field(() => Recurring, { description: 'Whether it is paid once or every billing period.' }) recurring!: number;
  @Field(() => LocalDateScalar, {
    name: 'paymentDate',
    description: 'The anchor every payment date is computed from (the first payment).',
  })
  payment_date!: string;
  @Field(() => LocalDateScalar, {
    name: 'nextPaymentDate',
    nullable: true,
    description: 'The next payment on or after today; null unless it is Active and recurring.',
  })
  next_payment_date!: string | null;
  @Field(() => LocalDateScalar, {
    name: 'lastPaymentDate',
    description: 'The latest payment date that has come, or paymentDate while none has.',
  })
  payment_date_upd!: string;
  @Field(() => BillingType, { name: 'billingType', description: 'How the next payment date follows from the last.' })
  billing_type!: number;
  @Field(() => BillingCycle, { name: 'billingCycle', description: 'The unit of its billing period.' })
  billing_cycle!: number;
  @Field(() => Int, {
    name: 'billingFrequency',
    description: 'How many billingCycle units a billing period lasts (1 to 365).',
  })
  billing_frequency!: number;
  @Field(() => RecordStatus, { description: 'Where it is in its life.' }) status!: number;
  @Field(() => Int, {
    name: 'refundDays',
    nullable: true,
    description: 'The refund window after paymentDate, in days; null when none.',
  })
  refund_days!: number | null;
  @Field(() => LocalDateScalar, {
    name: 'refundDate',
    nullable: true,
    description: 'The last day a refund is possible (paymentDate + refundDays); null when no window.',
  })
  refund_date!: string | null;
  // Output zones are plain strings: the TimeZone scalar revalidated every value (an eighth of a page's CPU).
  @Field({ description: 'The IANA zone its dates are in.' }) timezone!: string;
  /** The price in base_currency, decimal string (computed by the read). */
  base_value!: string;
  base_currency!: string;
  @Field(() => Money, {
    name: 'basePrice',
    description: "The price converted into its owner's base currency at the latest rates (REST base_value).",
  })
  get basePriceMoney(): Money {
    return { amount: this.base_value, currency: this.base_currency };
  }
  @Field(() => Int, { description: 'Your rating, 1 to 10; 0 when unset.' }) rating!: number;
  /** 0 no alert, 1 the system default, else an alert definition: shown by `alerts`. */
  alert_id!: number;
  @Field(() => String, { name: 'discountVoucher', nullable: true, description: 'A voucher code; null when none.' })
  discount_voucher!: string | null;
  @Field(() => String, {
    name: 'companyName',
    nullable: true,
    description: 'The company billed; null when none.',
  })
  company_name!: string | null;
  /** Lifetime value, decimal string in price_type. */
  ltdval_price!: string | null;
  @Field(() => Money, {
    name: 'ltdvalPrice',
    nullable: true,
    description:
      "Its lifetime value (what it would cost as a subscription), in the record's currency; null when unset.",
  })
  get ltdvalMoney(): Money | null {
    return this.ltdval_price === null ? null : { amount: this.ltdval_price, currency: this.price_type };
  }
  @Field(() => BillingCycle, {
    name: 'ltdvalCycle',
    nullable: true,
    description: 'The unit of the period the lifetime value is for; null when unset.',
  })
  ltdval_cycle!: number | null;
  @Field(() => Int, {
    name: 'ltdvalFrequency',
    nullable: true,
    description: 'How many ltdvalCycle units that period lasts; null when unset.',
  })
  ltdval_frequency!: number | null;
  @Field(() => LocalDateScalar, {
    name: 'expiryDate',
    nullable: true,
    description: 'Past this date an Active record becomes Expired; null when it does not expire.',
  })
  expiry_date!: string | null;
  @Field(() => LocalDateScalar, {
    name: 'contractExpiry',
    nullable: true,
    description: 'The day its contract ends; null when none.',
  })
  contract_expiry!: string | null;
  @Field(() => Int, {
    name: 'contractNoticeDays',
    nullable: true,
    description: 'The last day to cancel is this many days before contractExpiry; null when none.',
  })
  contract_notice_days!: number | null;
  sub_id!: number | null;
  /** The main record's global id, made only when asked for. */
  @Field(() => ID, {
    name: 'mainRecordId',
    nullable: true,
    description: 'The global id of the record it is an add-on of; null for a record that is not an add-on.',
  })
  get mainRecordGlobalId(): string | null {
    return this.sub_id === null ? null : toGlobalId(RECORD_TYPE_NAME, this.sub_id);
  }
  created_at!: string;
  /** The stored UTC timestamp as a DateTime (the stored form is not RFC 3339). */
  @Field(() => DateTimeResolver, { description: 'When it was made.' })
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
  product_product_type!: number;
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

@ObjectType('SubscriptionConnection', { description: 'A page of your records.' })
export class SubscriptionConnection extends Connection('Subscription', SubscriptionRecordView) {}

@ObjectType('CalendarEntry', { description: 'One payment date of one record.' })
export class CalendarEntryView {
  @Field({
    description: 'Stable for the same record and date, and unique in a calendar: a key for lists, not a global id.',
  })
  key!: string;
  @Field(() => LocalDateScalar, { description: 'The payment date.' }) date!: string;
  @Field(() => SubscriptionRecordView, { description: 'The record paid that day.' })
  subscription!: SubscriptionRecordView;
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
registerEnumType(SubscriptionOrderField, {
  name: 'SubscriptionOrderField',
  description: 'What records can be ordered by.',
  valuesConfig: {
    PAYMENT_DATE: { description: 'The payment date (the anchor).' },
    PRODUCT_NAME: { description: 'The product name.' },
    PRICE: { description: 'The price, in its own currency.' },
    CREATED_AT: { description: 'When the record was made.' },
    STATUS: { description: 'The status code.' },
    ID: { description: 'The order records were made in.' },
  },
});
registerEnumType(OrderDirection, {
  name: 'OrderDirection',
  description: 'Which way an order runs.',
  valuesConfig: {
    ASC: { description: 'Smallest (or earliest, or A) first.' },
    DESC: { description: 'Largest (or latest, or Z) first.' },
  },
});

@InputType('SubscriptionOrder', { description: 'How to order records.' })
export class SubscriptionOrder {
  @Field(() => SubscriptionOrderField, { description: 'The field to order by.' }) field!: SubscriptionOrderField;
  @Field(() => OrderDirection, { defaultValue: OrderDirection.ASC, description: 'Which way; ascending by default.' })
  direction!: OrderDirection;
}

@InputType('SubscriptionFilter', { description: 'Which records to list: every condition given holds.' })
export class SubscriptionFilter {
  @Field(() => [ID], { nullable: true, description: 'Records in one of these folders (global ids).' })
  folderIds?: string[];
  @Field({
    nullable: true,
    description: 'true: records in no folder too (or, without folderIds, only records in no folder).',
  })
  withoutFolder?: boolean;
  @Field(() => [RecordType], { nullable: true, description: 'Records of these types.' }) types?: number[];
  @Field(() => [BillingCycle], { nullable: true, description: 'Records with these billing cycles.' })
  billingCycles?: number[];
  @Field(() => [RecordStatus], { nullable: true, description: 'Records in these statuses.' }) statuses?: number[];
  @Field(() => [Recurring], { nullable: true, description: 'Records paid once, or recurring, or either.' })
  recurring?: number[];
  @Field(() => [Int], { nullable: true, description: 'Records with these ratings (0: unrated).' }) ratings?: number[];
  @Field(() => [ID], { nullable: true, description: 'Records with one of these tags (global ids).' })
  tagIds?: string[];
  @Field(() => [ID], { nullable: true, description: 'Records paid with one of these payment modes (global ids).' })
  paymentModeIds?: string[];
  @Field(() => [ID], {
    nullable: true,
    description: 'Records whose first alert is one of these alert definitions (global ids).',
  })
  alertIds?: string[];
  @Field({
    nullable: true,
    description: 'true: records with no alert too (or, without alertIds, only records with no alert).',
  })
  withoutAlert?: boolean;
  @Field(() => [ID], { nullable: true, description: 'Records in one of these categories (global ids).' })
  categoryIds?: string[];
  @Field(() => LocalDateScalar, { nullable: true, description: 'Records whose payment date (the anchor) is this day.' })
  paymentDate?: string;
}

/** The GraphQL descriptions of the field table's fields (REST keeps the table's own, which name REST codes). */
const INPUT_DESCRIPTIONS: Record<ValueField, string> = {
  type: 'What the record is.',
  price: 'What one payment costs: at least 0, two decimals at most, in `currency`.',
  currency: 'The ISO 4217 code of the currency it is paid in.',
  billingType: 'How the next payment date follows from the last (CALENDAR_DATE when left out on create).',
  billingFrequency: 'How many billingCycle units a billing period lasts, 1 to 365 (1 when left out on create).',
  billingCycle: 'The unit of its billing period.',
  paymentDate: 'The first payment: the anchor every payment date is computed from.',
  status: 'Where it is in its life (ACTIVE when left out on create).',
  recurring: 'Whether it is paid once or every billing period (RECURRING when left out on create).',
  description: 'A description, at most 5000 characters; null clears it.',
  discountVoucher: 'A voucher code, at most 200 characters; null clears it.',
  note: 'A note, at most 5000 characters; null clears it.',
  companyName: 'The company billed, at most 200 characters; null clears it.',
  rating: 'A rating, 1 to 10; 0 for none.',
  ltdvalPrice: "Its lifetime value, in the record's currency: at least 0, two decimals at most; null clears it.",
  ltdvalCycle: 'The unit of the period the lifetime value is for; null clears it.',
  ltdvalFrequency: 'How many ltdvalCycle units that period lasts, 1 to 365; null clears it.',
  refundDays: 'The refund window after paymentDate, 0 to 3650 days; null for none.',
  expiryDate: 'Past this date an Active record becomes Expired; null for never.',
  contractExpiry: 'The day its contract ends; null for none.',
  contractNoticeDays:
    'The notice its contract asks for, in days: the last day to cancel is that many days before contractExpiry (reminded as contract_notice); null for none.',
  timezone: "The IANA zone its dates are in (your profile's when left out on create).",
};

/** The enum of each code field of the field table. */
const CODE_ENUMS: Partial<Record<ValueField, object>> = {
  type: RecordType,
  status: RecordStatus,
  recurring: Recurring,
  billingType: BillingType,
  billingCycle: BillingCycle,
  ltdvalCycle: BillingCycle,
};

/** GraphQL's input type of a field of the field table. */
function graphqlTypeOf(name: ValueField, rule: FieldRule) {
  switch (rule.kind) {
    case 'code': {
      const codes = CODE_ENUMS[name];
      if (!codes) throw new Error(`The code field ${name} has no GraphQL enum`);
      return codes;
    }
    case 'integer':
      return Int;
    case 'money':
      return DecimalScalar;
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

/** Typed as the field table's value fields; their GraphQL fields are decorated from RECORD_FIELDS below. */
const ValueFields = class {} as new () => Partial<Pick<SubscriptionInput, ValueField>>;

/**
 * The fields a record is made or changed from; every one optional here (the create input requires some).
 * Each mutation names its own subclass.
 */
@InputType()
export abstract class SubscriptionFields extends ValueFields {
  @Field(() => ID, {
    nullable: true,
    description: 'A catalogue product, or your own private product (global id); or give productName.',
  })
  productId?: string;
  @Field(() => String, {
    nullable: true,
    description: 'A product name: makes (or reuses) your private product of that name; or give productId.',
  })
  productName?: string;
  @Field(() => ID, { nullable: true, description: 'The folder it is in (global id); null for none.' })
  folderId?: string | null;
  @Field(() => ID, {
    nullable: true,
    description:
      'Its alert definition (global id); null for no alert (no reminders). Left out on create: the system default alert.',
  })
  alertId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Its category (global id); null for none.' })
  categoryId?: string | null;
  @Field(() => ID, { nullable: true, description: 'How it is paid (global id); null for none.' })
  paymentModeId?: string | null;
  @Field(() => [ID], {
    nullable: true,
    description: 'Its tags (global ids). With tagNames, the tags it carries (replacing the ones it had).',
  })
  tagIds?: string[];
  @Field(() => [String], {
    nullable: true,
    description: 'Its tags by name (names that are not yet tags become tags). With tagIds, all its tags.',
  })
  tagNames?: string[];
}

@InputType('UpdateSubscriptionInput', { description: 'Changes to a record: the fields given are set.' })
export class UpdateSubscriptionInput extends SubscriptionFields {
  @Field(() => ID, { description: 'The record to change.' }) id!: string;
}

/** Creating requires the fields REST requires (some with defaults here), decorated below. */
@InputType('CreateSubscriptionInput', {
  description: 'A new record: a product (productId or productName) and its price, billing and first payment.',
})
export class CreateSubscriptionInput extends SubscriptionFields {}

for (const field of RECORD_FIELDS) {
  const type = () => graphqlTypeOf(field.name, field.rule);
  const description = INPUT_DESCRIPTIONS[field.name];
  Field(type, { nullable: true, description })(SubscriptionFields.prototype, field.name);
  if (REQUIRED_ON_CREATE.has(field.name)) {
    const defaults = field.graphqlDefault === undefined ? {} : { defaultValue: field.graphqlDefault };
    Field(type, { description, ...defaults })(CreateSubscriptionInput.prototype, field.name);
  }
}

/** An id of a record and nothing else: each mutation that takes only one names its own subclass. */
@InputType()
export abstract class RecordIdInput {
  @Field(() => ID, { description: 'The record (global id).' }) id!: string;
}
@InputType('DeleteSubscriptionInput', { description: 'The record to delete (restoreSubscription brings it back).' })
export class DeleteSubscriptionInput extends RecordIdInput {}
@InputType('RestoreSubscriptionInput', { description: 'The deleted record to bring back.' })
export class RestoreSubscriptionInput extends RecordIdInput {}
@InputType('CancelSubscriptionInput', { description: 'The record to cancel.' })
export class CancelSubscriptionInput extends RecordIdInput {}
@InputType('RefundSubscriptionInput', { description: 'The record to mark refunded.' })
export class RefundSubscriptionInput extends RecordIdInput {}

@InputType('AddAddonInput', {
  description: 'An add-on: it takes its product, folder, billing and alert from its main record.',
})
export class AddAddonInput {
  @Field(() => ID, { description: 'The main record (global id); an add-on cannot have add-ons.' })
  mainRecordId!: string;
  @Field(() => RecordType, { defaultValue: 3, description: 'What the add-on is; LIFETIME when left out.' })
  type!: number;
  @Field(() => DecimalScalar, { description: 'What it costs: at least 0, two decimals at most, in `currency`.' })
  price!: string;
  @Field(() => CurrencyResolver, { description: 'The ISO 4217 code of the currency it is paid in.' })
  currency!: string;
  @Field(() => LocalDateScalar, { description: 'Its (first) payment date.' }) paymentDate!: string;
  @Field(() => RecordStatus, { nullable: true, description: "Its status; the main record's when left out." })
  status?: number;
  @Field(() => Recurring, { defaultValue: 1, description: 'Paid once or every period; RECURRING when left out.' })
  recurring!: number;
  @Field(() => LocalDateScalar, {
    nullable: true,
    description: 'The last day a refund is possible; null or left out for none.',
  })
  refundDate?: string | null;
}

@InputType('SetSubscriptionAlertsInput', { description: "A record's alert definitions, replacing the ones it had." })
export class SetSubscriptionAlertsInput {
  @Field(() => ID, { description: 'The record (global id).' }) id!: string;
  @Field(() => [ID], { description: 'Its alert definitions (global ids), 1 to 10; the first is its main alert.' })
  alertIds!: string[];
}

@InputType('ChangePriceInput', { description: "A recurring record's new price from a date on." })
export class ChangePriceInput {
  @Field(() => ID, { description: 'The record (global id).' }) id!: string;
  @Field(() => DecimalScalar, { description: "The new price, in the record's currency: at least 0, two decimals." })
  price!: string;
  @Field(() => LocalDateScalar, { description: 'The day it takes effect: on or after the payment date.' })
  effectiveFrom!: string;
}

@ObjectType('PriceStep', { description: "A record's price from a date on (until the next step)." })
export class PriceStepView {
  @Field(() => LocalDateScalar, { description: 'The first day of this price.' }) effectiveFrom!: string;
  @Field(() => Money, { description: "The price from that day, in the record's currency." }) price!: Money;
}

@ObjectType('PriceStepConnection', { description: "A page of a record's price steps, oldest first." })
export class PriceStepConnection extends Connection('PriceStep', PriceStepView) {}

// The domain's field-error keys (REST names) that are named otherwise in the GraphQL inputs.
// (The others are the camelCase of their REST names.)
renameUserErrorFields({ price_type: 'currency', brand_id: 'productId', tags: 'tagIds' });
