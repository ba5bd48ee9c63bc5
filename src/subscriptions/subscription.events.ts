import type { StatementPart } from '../platform/db/statements';
import { eventsPart } from '../webhooks/outbox';
import type { SubscriptionTopic } from '../webhooks/topics';
import { label, PRODUCT_TYPE_LABELS } from './codes';
import { presentSubscription } from './record-shape';
import type { SubscriptionRecord } from './subscription.record';

/**
 * A delivery body as the spec's Events section shows it: the record with `product_type` as an object,
 * `tags` as an array, and the nested `folder`, `product` and `product_category`.
 */
export function eventPayload(
  record: SubscriptionRecord,
  tags: Array<{ id: number; name: string }>,
): Record<string, unknown> {
  return {
    ...presentSubscription(record),
    product_type:
      record.product_type === null
        ? null
        : { id: record.product_type, name: label(PRODUCT_TYPE_LABELS, record.product_type) },
    tags,
    folder:
      record.folder_id === null
        ? null
        : {
            id: record.folder_id,
            name: record.folder_name,
            color: record.folder_color,
            is_default: record.folder_is_default ?? 0,
          },
    product: {
      id: record.product_id,
      product_name: record.product_product_name,
      brandname: record.product_brandname,
      category_id: record.product_category_id,
      product_type: record.product_product_type,
      description: record.product_description,
    },
    product_category: record.category_id === null ? null : { id: record.category_id, name: record.category_name },
  };
}

/**
 * Events about records (their tags known), as a part of the statement that writes them or their reminder
 * (`extra` joins each body; `toEndpoints` false: for notification targets alone).
 */
export function recordEventsPart(
  userId: number,
  topic: SubscriptionTopic,
  records: ReadonlyArray<{ record: SubscriptionRecord; tags: Array<{ id: number; name: string }> }>,
  options: { extra?: Record<string, unknown>; toEndpoints?: boolean } = {},
): StatementPart {
  return eventsPart(
    userId,
    topic,
    records.map(({ record, tags }) => ({
      subscriptionId: record.id,
      payload: { ...eventPayload(record, tags), ...options.extra },
    })),
    options.toEndpoints,
  );
}
