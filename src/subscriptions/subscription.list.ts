import type { SortKey } from '../platform/objects';

/** Paging, search, filters and order of the record list (REST operation 8, GraphQL subscriptions). */
export interface ListQuery {
  q?: string;
  start: number;
  length: number;
  sort: SortKey<SortField>[];
  filters: {
    /** 0 stands for "no folder". */
    folderIds?: number[];
    types?: number[];
    billingCycles?: number[];
    statuses?: number[];
    recurring?: number[];
    ratings?: number[];
    tagIds?: number[];
    paymentModeIds?: number[];
    /** 0 stands for "no alert". */
    alertIds?: number[];
    categoryIds?: number[];
    /** YYYY-MM-DD: records anchored on that day. */
    paymentDate?: string;
  };
}

/** The filters of the original's list (`filters={"subscription": {<field>: [...]}}`) and the query keys they fill. */
export const FILTER_KEYS = {
  folder_id: 'folderIds',
  type: 'types',
  billing_cycle: 'billingCycles',
  status: 'statuses',
  recurring: 'recurring',
  rating: 'ratings',
  payment_method_id: 'paymentModeIds',
  alert_id: 'alertIds',
  category_id: 'categoryIds',
  tag_id: 'tagIds',
} as const satisfies Record<string, Exclude<keyof ListQuery['filters'], 'paymentDate'>>;

/** The original's default page. */
export const DEFAULT_LENGTH = 10;
export const MAX_LENGTH = 1000;

/** Fields a list may be sorted on. */
export const SORT_FIELDS = [
  'id',
  'product_name',
  'description',
  'brandname',
  'price',
  'payment_date',
  'created_at',
  'updated_at',
  'status',
  'type',
  'billing_cycle',
  'rating',
] as const;

export type SortField = (typeof SORT_FIELDS)[number];

export const DEFAULT_SORT: ListQuery['sort'] = [{ field: 'payment_date', direction: 'asc' }];
