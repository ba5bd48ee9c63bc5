import { toSqlSeconds } from '../../src/db/timestamps';
import { toMoneyString } from '../../src/money/money';
import {
  BILLING_TYPE_LABELS,
  CYCLE_LABELS,
  label,
  RECURRING_LABELS,
  STATUS_LABELS,
  SUB_ADDON_LABELS,
  TYPE_LABELS,
} from '../../src/subscriptions/codes';
import type { CalendarEntry } from '../../src/subscriptions/subscription.service';
import type { SubscriptionRecord } from '../../src/subscriptions/subscription.record';

/** The Subscription record of the spec, in its order, with its labels: price a number, money two-decimal strings. */
export function presentSubscription(record: SubscriptionRecord) {
  return {
    id: record.id,
    user_id: record.user_id,
    folder_id: record.folder_id ?? 0,
    brand_id: record.product_id,
    category_id: record.category_id,
    alert_id: record.alert_id,
    platform_id: record.platform_id,
    type: record.type,
    image: record.image,
    favicon: record.favicon,
    product_name: record.product_name,
    brandname: record.brandname,
    product_type: record.product_type,
    description: record.description,
    price: Number(record.price),
    price_type: record.price_type,
    recurring: record.recurring,
    payment_date: record.payment_date,
    next_payment_date: record.next_payment_date,
    payment_date_upd: record.payment_date_upd,
    expiry_date: record.expiry_date,
    contract_expiry: record.contract_expiry,
    homepage: record.homepage,
    pay_gateway_id: record.pay_gateway_id,
    note: record.note,
    company_name: record.company_name,
    discount_voucher: record.discount_voucher,
    payment_mode: record.payment_mode_name,
    payment_mode_id: record.payment_mode_id,
    include_notes: null,
    alert_type: record.alert_type,
    url: record.url,
    support_details: null,
    tags: null,
    billing_frequency: record.billing_frequency,
    billing_cycle: record.billing_cycle,
    billing_type: record.billing_type,
    ltdval_price: record.ltdval_price === null ? null : toMoneyString(record.ltdval_price),
    ltdval_frequency: record.ltdval_frequency,
    ltdval_cycle: record.ltdval_cycle,
    status: record.status,
    pricing_type: record.pricing_type,
    timezone: record.timezone,
    currency_code: record.currency_code,
    refund_days: record.refund_days,
    refund_date: record.refund_date,
    base_value: record.base_value,
    base_currency: record.base_currency,
    rating: record.rating,
    sub_addon: record.sub_addon,
    sub_id: record.sub_id,
    created_at: toSqlSeconds(record.created_at),
    created_by: record.created_by,
    type_value: label(TYPE_LABELS, record.type),
    recurring_value: label(RECURRING_LABELS, record.recurring),
    billing_cycle_value: label(CYCLE_LABELS, record.billing_cycle),
    billing_type_value: label(BILLING_TYPE_LABELS, record.billing_type),
    ltdval_cycle_value: label(CYCLE_LABELS, record.ltdval_cycle),
    status_value: label(STATUS_LABELS, record.status),
    pricing_type_value: label(TYPE_LABELS, record.pricing_type),
    sub_addon_value: label(SUB_ADDON_LABELS, record.sub_addon),
  };
}

/** A list item: the record plus the names the list joins in. */
export function presentListItem(record: SubscriptionRecord) {
  return {
    ...presentSubscription(record),
    brand_name: record.product_brandname ?? record.brandname,
    product_type_name: label(TYPE_LABELS, record.product_type),
    product_category_name: record.category_name,
    folder_color: record.folder_color,
    folder_name: record.folder_name,
    payment_method_name: record.payment_mode_name,
    alert_name: record.alert_name,
    attachment_count: 0,
  };
}

/** A calendar entry: the record on one of its payment dates, with its own stable id. */
export function presentCalendarEntry(entry: CalendarEntry) {
  return { ...presentSubscription(entry.record), id: entry.id, payment_date: entry.date, subscription_id: entry.record.id };
}
