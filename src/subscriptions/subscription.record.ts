import { addDays, todayIn } from '../platform/dates';
import { Status } from './codes';
import { lastOnOrBefore, nextOnOrAfter, type Schedule } from './payment-dates';

/** One subscription row as the read query returns it: stored columns plus joined names and the base value. */
export interface SubscriptionRow extends Partial<
  Pick<SubscriptionRecord, 'next_payment_date' | 'payment_date_upd' | 'refund_date'>
> {
  id: number;
  user_id: number;
  folder_id: number | null;
  product_id: number;
  category_id: number | null;
  alert_id: number;
  payment_mode_id: number | null;
  sub_id: number | null;
  platform_id: number | null;
  type: number;
  image: string;
  favicon: string | null;
  product_name: string;
  brandname: string | null;
  product_type: number | null;
  description: string | null;
  price: string;
  price_type: string;
  recurring: number;
  payment_date: string;
  expiry_date: string | null;
  contract_expiry: string | null;
  contract_notice_days: number | null;
  homepage: string | null;
  pay_gateway_id: number;
  note: string | null;
  company_name: string | null;
  discount_voucher: string | null;
  alert_type: number | null;
  billing_frequency: number;
  billing_cycle: number;
  billing_type: number;
  ltdval_price: string | null;
  ltdval_frequency: number | null;
  ltdval_cycle: number | null;
  status: number;
  timezone: string;
  refund_days: number | null;
  rating: number;
  sub_addon: number;
  created_at: string;
  updated_at: string | null;
  created_by: number;
  deleted_at: string | null;
  base_currency: string;
  /** The price in base_currency (computed by the read). */
  base_value: string;
  folder_name: string | null;
  folder_color: string | null;
  payment_mode_name: string | null;
  alert_name: string | null;
  category_name: string | null;
  category_user_id: number | null;
  category_created_at: string | null;
  product_brandname: string | null;
  folder_is_default: number | null;
  product_product_name: string;
  product_category_id: number;
  product_product_type: number;
  product_description: string;
  /** The logo it shows (a Logo's hash): its own upload, else its product's; null: none (a monogram). */
  logo_hash: string | null;
}

/** The rest of the product's summary, on reads that ask for it (a GraphQL page). */
export interface ProductSummaryColumns {
  product_owner_id: number | null;
  product_url: string | null;
  product_image: string;
  product_currency_code: string;
  product_price1_value: string | null;
  product_billing_cycle: number;
  product_billing_frequency: number;
  /** Null when the product is gone (the join found none). */
  product_refund_days: number | null;
  /** The product's logo (a Logo's hash); null: none. */
  product_logo_hash: string | null;
}

/** A row with what is derived from it at read time ("today" decides the payment dates). */
export interface SubscriptionRecord extends SubscriptionRow {
  next_payment_date: string | null;
  /** The latest payment date that has come, or payment_date while none has. */
  payment_date_upd: string;
  refund_date: string | null;
}

export function scheduleOf(
  row: Pick<SubscriptionRow, 'payment_date' | 'billing_type' | 'billing_cycle' | 'billing_frequency' | 'expiry_date'>,
): Schedule {
  return {
    anchor: row.payment_date,
    billingType: row.billing_type,
    billingCycle: row.billing_cycle,
    billingFrequency: row.billing_frequency,
    until: row.expiry_date,
  };
}

/** Payments repeat only for Active recurring records. */
export function isRecurringActive(row: Pick<SubscriptionRow, 'recurring' | 'status'>): boolean {
  return row.recurring === 1 && row.status === Status.Active;
}

/** "Today" per zone for one read: computing it (Intl) per row was a tenth of a list's CPU. */
export function todayCache(now: Date): (timezone: string) => string {
  const cache = new Map<string, string>();
  return (timezone) => {
    let today = cache.get(timezone);
    if (today === undefined) {
      today = todayIn(timezone, now);
      cache.set(timezone, today);
    }
    return today;
  };
}

/**
 * Whether `userId` sees the record's alert set-up (its alert definitions, their channels and contacts): its
 * owner does; a member of the household it is shared in does not. The one rule of what a member reads of it.
 */
export function seesAlertSetUp(record: Pick<SubscriptionRow, 'user_id'>, userId: number): boolean {
  return record.user_id === userId;
}

/**
 * The record as `userId` may read it: whole for its owner (the same object); for a member of the household it
 * is shared in, a copy without the owner's alert set-up: alert_id 0 (no alert of theirs), no alert type or name.
 */
export function asSeenBy<T extends SubscriptionRecord>(record: T, userId: number): T {
  if (seesAlertSetUp(record, userId)) return record;
  return { ...record, alert_id: 0, alert_type: null, alert_name: null };
}

/**
 * Derives next_payment_date, payment_date_upd and refund_date; `now` is the instant of the read.
 * The row becomes the record in place: copying 60 fields per row was the largest cost of a list. The read
 * selects the three as nulls, so filling them changes no object's shape (adding them did, and slowed V8 down).
 */
export function toRecord(row: SubscriptionRow, now: Date | ((timezone: string) => string)): SubscriptionRecord {
  const today = typeof now === 'function' ? now(row.timezone) : todayIn(row.timezone, now);
  const schedule = scheduleOf(row);
  const record = row as SubscriptionRecord;
  record.next_payment_date = isRecurringActive(row) ? nextOnOrAfter(schedule, today) : null;
  record.payment_date_upd =
    row.recurring === 1 ? (lastOnOrBefore(schedule, today) ?? row.payment_date) : row.payment_date;
  record.refund_date = row.refund_days === null ? null : addDays(row.payment_date, row.refund_days);
  return record;
}
