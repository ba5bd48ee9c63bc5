import { label, TYPE_LABELS } from '../../src/subscriptions/codes';
import { presentSubscription } from '../../src/subscriptions/record-shape';
import type { SubscriptionRecord } from '../../src/subscriptions/subscription.record';
import type { CalendarEntry } from '../../src/subscriptions/subscription.service';

export { presentSubscription };

/** A list item: the record plus the names the list joins in. */
export function presentListItem(record: SubscriptionRecord) {
  return presentSubscription(record, {
    brand_name: record.product_brandname ?? record.brandname,
    product_type_name: label(TYPE_LABELS, record.product_type),
    product_category_name: record.category_name,
    folder_color: record.folder_color,
    folder_name: record.folder_name,
    payment_method_name: record.payment_mode_name,
    alert_name: record.alert_name,
    attachment_count: 0,
  });
}

/** A calendar entry: the record on one of its payment dates, with its own stable id. */
export function presentCalendarEntry(entry: CalendarEntry) {
  return { ...presentSubscription(entry.record), id: entry.id, payment_date: entry.date, subscription_id: entry.record.id };
}
