import {
  BILLING_TYPE_LABELS,
  BillingType,
  Cycle,
  CYCLE_LABELS,
  MAX_RATING,
  RECURRING_LABELS,
  Status,
  STATUS_LABELS,
  TYPE_LABELS,
} from './codes';
import type { Subscription } from './subscription.entity';
import type { SubscriptionInput } from './subscription.input';

/** The longest refund window, in days. */
export const MAX_REFUND_DAYS = 3650;

/** What a field holds, and so how it is read, checked and typed on each transport. */
export type FieldRule =
  | { kind: 'code'; labels: Record<number, string>; /** 0/1 codes JSON clients may send as booleans */ switch?: true }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'money' }
  | { kind: 'date' }
  | { kind: 'text'; max: number }
  | { kind: 'currency' }
  | { kind: 'zone' };

/** The input fields of a record that hold a value (links to other rows and tags are resolved apart). */
export type ValueField = Exclude<
  keyof SubscriptionInput,
  'product' | 'folderId' | 'alertId' | 'categoryId' | 'paymentModeId' | 'tags'
>;

export interface RecordField {
  /** The domain's (and GraphQL's) name. */
  name: ValueField;
  /** The REST field, which is also the column and the name in field errors. */
  rest: string;
  /** The entity property written; the duplicate columns the original keeps are written alongside. */
  property: keyof Subscription;
  rule: FieldRule;
  description?: string;
  /** What GraphQL's create takes when the field is left out (REST requires every field of REQUIRED_ON_CREATE). */
  graphqlDefault?: number;
}

const code = (labels: Record<number, string>, options: { switch?: true } = {}): FieldRule => ({
  kind: 'code',
  labels,
  ...options,
});
const integer = (min: number, max: number): FieldRule => ({ kind: 'integer', min, max });
const text = (max: number): FieldRule => ({ kind: 'text', max });

/**
 * The one list of a record's value fields: the domain rules, the REST form readers, the create and update
 * assignments and the GraphQL inputs are all made from it.
 */
export const RECORD_FIELDS: readonly RecordField[] = [
  {
    name: 'type',
    rest: 'type',
    property: 'type',
    rule: code(TYPE_LABELS),
    description: '1 Subscription, 2 Trial, 3 Lifetime',
  },
  {
    name: 'price',
    rest: 'price',
    property: 'price',
    rule: { kind: 'money' },
    description: 'Decimal string, at least 0, two decimals at most',
  },
  { name: 'currency', rest: 'price_type', property: 'priceType', rule: { kind: 'currency' } },
  {
    name: 'billingType',
    rest: 'billing_type',
    property: 'billingType',
    rule: code(BILLING_TYPE_LABELS),
    description: '1 fixed days, 2 calendar date',
    graphqlDefault: 2,
  },
  {
    name: 'billingFrequency',
    rest: 'billing_frequency',
    property: 'billingFrequency',
    rule: integer(1, 365),
    graphqlDefault: 1,
  },
  {
    name: 'billingCycle',
    rest: 'billing_cycle',
    property: 'billingCycle',
    rule: code(CYCLE_LABELS),
    description: '1 daily, 2 weekly, 3 monthly, 4 yearly',
  },
  { name: 'paymentDate', rest: 'payment_date', property: 'paymentDate', rule: { kind: 'date' } },
  {
    name: 'status',
    rest: 'status',
    property: 'status',
    rule: code(STATUS_LABELS, { switch: true }),
    graphqlDefault: 1,
  },
  {
    name: 'recurring',
    rest: 'recurring',
    property: 'recurring',
    rule: code(RECURRING_LABELS, { switch: true }),
    graphqlDefault: 1,
  },
  { name: 'description', rest: 'description', property: 'description', rule: text(5000) },
  { name: 'discountVoucher', rest: 'discount_voucher', property: 'discountVoucher', rule: text(200) },
  { name: 'note', rest: 'note', property: 'note', rule: text(5000) },
  { name: 'companyName', rest: 'company_name', property: 'companyName', rule: text(200) },
  { name: 'rating', rest: 'rating', property: 'rating', rule: integer(0, MAX_RATING), description: '0 (unset) to 10' },
  {
    name: 'ltdvalPrice',
    rest: 'ltdval_price',
    property: 'ltdvalPrice',
    rule: { kind: 'money' },
    description: 'Lifetime value: a decimal string',
  },
  { name: 'ltdvalCycle', rest: 'ltdval_cycle', property: 'ltdvalCycle', rule: code(CYCLE_LABELS) },
  { name: 'ltdvalFrequency', rest: 'ltdval_frequency', property: 'ltdvalFrequency', rule: integer(1, 365) },
  { name: 'refundDays', rest: 'refund_days', property: 'refundDays', rule: integer(0, MAX_REFUND_DAYS) },
  {
    name: 'expiryDate',
    rest: 'expiry_date',
    property: 'expiryDate',
    rule: { kind: 'date' },
    description: 'Past this date an Active record becomes Expired',
  },
  { name: 'contractExpiry', rest: 'contract_expiry', property: 'contractExpiry', rule: { kind: 'date' } },
  {
    name: 'contractNoticeDays',
    rest: 'contract_notice_days',
    property: 'contractNoticeDays',
    rule: integer(0, MAX_REFUND_DAYS),
    description:
      'Notice the contract asks for, in days: the last day to cancel is that many days before contractExpiry (reminded as contract_notice)',
  },
  { name: 'timezone', rest: 'timezone', property: 'timezone', rule: { kind: 'zone' } },
];

/** The fields a create must have (the rest are optional on create, and everything is optional on update). */
export const REQUIRED_ON_CREATE: ReadonlySet<ValueField> = new Set([
  'type',
  'price',
  'currency',
  'billingType',
  'billingFrequency',
  'billingCycle',
  'paymentDate',
  'status',
  'recurring',
]);

/**
 * What the inbound webhook's created event (operation 25) takes for a field of REQUIRED_ON_CREATE its sender
 * leaves out (absent, null or empty), as the original's webhook does (Webhook\SubscriptionController::create):
 * billing_type 1 (`?? 1`), status 0 Draft and recurring 0 Once (`input('status') ? 1 : 0`). The original leaves
 * billing_frequency and billing_cycle NULL; a record here always has a period, so they take 1 and 3: once a
 * month, as the original's list shows a record without a cycle. A value that is sent is checked as on operation 4.
 */
export const INBOUND_CREATE_DEFAULTS: Readonly<Partial<Record<ValueField, number>>> = {
  billingType: BillingType.FixedDays,
  billingFrequency: 1,
  billingCycle: Cycle.Monthly,
  status: Status.Draft,
  recurring: 0,
};

/** The entity properties an input sets, from the field table. */
export function entityFields(input: Partial<SubscriptionInput>): Partial<Subscription> {
  const fields: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS) if (input[field.name] !== undefined) fields[field.property] = input[field.name];
  return fields as Partial<Subscription>;
}
