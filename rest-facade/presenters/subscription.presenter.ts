import { label, PRODUCT_TYPE_LABELS } from '../../src/subscriptions/codes';
import { presentSubscription } from '../../src/subscriptions/record-shape';
import type { SubscriptionRecord } from '../../src/subscriptions/subscription.record';
import type { CalendarEntry } from '../../src/subscriptions/subscription.service';

export { presentSubscription };

/** A list item: the record plus the names the list joins in (added in place: a list builds 100 of them). */
export function presentListItem(record: SubscriptionRecord) {
  const item: ReturnType<typeof presentSubscription> & Record<string, unknown> = presentSubscription(record);
  item.brand_name = record.product_brandname ?? record.brandname;
  item.product_type_name = label(PRODUCT_TYPE_LABELS, record.product_type);
  item.product_category_name = record.category_name;
  item.folder_color = record.folder_color;
  item.folder_name = record.folder_name;
  item.payment_method_name = record.payment_mode_name;
  item.alert_name = record.alert_name;
  item.attachment_count = 0;
  return item;
}

/** A calendar entry: the record on one of its payment dates, with its own stable id. */
export function presentCalendarEntry(entry: CalendarEntry) {
  const item: ReturnType<typeof presentSubscription> & { subscription_id?: number; calendar_date?: string } =
    presentSubscription(entry.record);
  item.id = entry.id;
  item.payment_date = entry.date;
  item.subscription_id = entry.record.id;
  item.calendar_date = entry.date;
  return item;
}
