import { convert, toMoneyString } from '../platform/money';
import { Status } from './codes';
import { addDays, todayIn } from '../platform/dates';
import { lastOnOrBefore, nextOnOrAfter, type Schedule } from './payment-dates';

/** One subscription row as the read query returns it: stored columns plus joined names and rates. */
export interface SubscriptionRow extends Partial<Pick<SubscriptionRecord, 'next_payment_date' | 'payment_date_upd' | 'refund_date' | 'base_value'>> {
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
  homepage: string | null;
  pay_gateway_id: number;
  note: string | null;
  company_name: string | null;
  discount_voucher: string | null;
  alert_type: number | null;
  url: string | null;
  billing_frequency: number;
  billing_cycle: number;
  billing_type: number;
  ltdval_price: string | null;
  ltdval_frequency: number | null;
  ltdval_cycle: number | null;
  status: number;
  pricing_type: number | null;
  timezone: string;
  currency_code: string | null;
  refund_days: number | null;
  rating: number;
  sub_addon: number;
  created_at: string;
  updated_at: string | null;
  created_by: number;
  deleted_at: string | null;
  base_currency: string;
  price_rate: string | null;
  base_rate: string | null;
  folder_name: string | null;
  folder_color: string | null;
  payment_mode_name: string | null;
  alert_name: string | null;
  category_name: string | null;
  product_brandname: string | null;
  folder_is_default: number | null;
  product_product_name: string;
  product_category_id: number;
  product_product_type: number;
  product_description: string;
}

/** A row with what is derived from it at read time ("today" decides the payment dates). */
export interface SubscriptionRecord extends SubscriptionRow {
  next_payment_date: string | null;
  /** The latest payment date that has come, or payment_date while none has. */
  payment_date_upd: string;
  refund_date: string | null;
  base_value: string;
}

/**
 * The one read query of subscription records, with everything the documented shapes need in one statement:
 * folder, payment mode, alert, category and product names, and the two exchange rates for base_value.
 * `filter` (where, order, limit on the subscriptions table alone) runs first, so the names are joined onto the
 * page only, not onto every row of the user; `order` sorts the joined page the same way.
 */
export function recordSelect(filter: string, order = ''): string {
  return `
select s."id", s."user_id", s."folder_id", s."product_id", s."category_id", coalesce(s."alert_id", 0) as "alert_id", s."payment_mode_id", s."sub_id",
       s."platform_id", s."type", s."image", s."favicon", s."product_name", s."brandname", s."product_type", s."description",
       s."price", s."price_type", s."recurring", s."payment_date", s."expiry_date", s."contract_expiry", s."homepage",
       s."pay_gateway_id", s."note", s."company_name", s."discount_voucher", s."alert_type", s."url", s."billing_frequency",
       s."billing_cycle", s."billing_type", s."ltdval_price", s."ltdval_frequency", s."ltdval_cycle", s."status",
       s."pricing_type", s."timezone", s."currency_code", s."refund_days", s."rating", s."sub_addon", s."created_at",
       s."updated_at", s."created_by", s."deleted_at",
       u."base_currency", rp."per_usd" as "price_rate", rb."per_usd" as "base_rate",
       f."name" as "folder_name", f."color" as "folder_color", pm."name" as "payment_mode_name", a."alert_name",
       pc."name" as "category_name", p."brandname" as "product_brandname", f."is_default" as "folder_is_default",
       p."product_name" as "product_product_name", p."category_id" as "product_category_id", p."product_type" as "product_product_type",
       p."description" as "product_description",
       null as "next_payment_date", null as "payment_date_upd", null as "refund_date", null as "base_value"
  from (select * from "subscriptions" s ${filter}) s
  join "users" u on u."id" = s."user_id"
  left join "exchange_rates" rp on rp."currency" = s."price_type"
  left join "exchange_rates" rb on rb."currency" = u."base_currency"
  left join "folders" f on f."id" = s."folder_id"
  left join "payment_modes" pm on pm."id" = s."payment_mode_id"
  left join "alerts" a on a."id" = s."alert_id"
  left join "product_categories" pc on pc."id" = s."category_id"
  left join "products" p on p."id" = s."product_id"
  ${order}`;
}

export function scheduleOf(row: Pick<SubscriptionRow, 'payment_date' | 'billing_type' | 'billing_cycle' | 'billing_frequency'>): Schedule {
  return { anchor: row.payment_date, billingType: row.billing_type, billingCycle: row.billing_cycle, billingFrequency: row.billing_frequency };
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
 * Derives next_payment_date, payment_date_upd, refund_date and base_value; `now` is the instant of the read.
 * The row becomes the record in place: copying 60 fields per row was the largest cost of a list. The read
 * selects the four as nulls, so filling them changes no object's shape (adding them did, and slowed V8 down).
 */
export function toRecord(row: SubscriptionRow, now: Date | ((timezone: string) => string)): SubscriptionRecord {
  const today = typeof now === 'function' ? now(row.timezone) : todayIn(row.timezone, now);
  const schedule = scheduleOf(row);
  const record = row as SubscriptionRecord;
  record.next_payment_date = isRecurringActive(row) ? nextOnOrAfter(schedule, today) : null;
  record.payment_date_upd = row.recurring === 1 ? (lastOnOrBefore(schedule, today) ?? row.payment_date) : row.payment_date;
  record.refund_date = row.refund_days === null ? null : addDays(row.payment_date, row.refund_days);
  record.base_value = baseValue(row);
  return record;
}

/** The price in the user's base currency; as it stands when the currencies agree or a rate is missing. */
function baseValue(row: SubscriptionRow): string {
  if (row.price_type === row.base_currency || !row.price_rate || !row.base_rate) return toMoneyString(row.price);
  return convert(
    row.price,
    row.price_type,
    row.base_currency,
    new Map([
      [row.price_type, row.price_rate],
      [row.base_currency, row.base_rate],
    ]),
  );
}
