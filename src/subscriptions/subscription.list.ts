import { escapeLike, type SortKey } from '../platform/objects';
import { CYCLE_LABELS, RECURRING_LABELS, TYPE_LABELS } from './codes';

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

/** The filters of the original's list (`filters={"subscription": {<field>: [...]}}`) and the columns they test. */
export const FILTER_COLUMNS = {
  folder_id: { key: 'folderIds', column: 's."folder_id"' },
  type: { key: 'types', column: 's."type"' },
  billing_cycle: { key: 'billingCycles', column: 's."billing_cycle"' },
  status: { key: 'statuses', column: 's."status"' },
  recurring: { key: 'recurring', column: 's."recurring"' },
  rating: { key: 'ratings', column: 's."rating"' },
  payment_method_id: { key: 'paymentModeIds', column: 's."payment_mode_id"' },
  alert_id: { key: 'alertIds', column: 'coalesce(s."alert_id", 0)' },
  category_id: { key: 'categoryIds', column: 's."category_id"' },
  tag_id: { key: 'tagIds', column: null },
} as const;

/** The original's default page. */
export const DEFAULT_LENGTH = 10;
export const MAX_LENGTH = 1000;

/** Fields a list may be sorted on, and their columns. */
export const SORT_COLUMNS = {
  id: 's."id"',
  product_name: 'lower(s."product_name")',
  description: 'lower(s."description")',
  brandname: 'lower(s."brandname")',
  price: 's."price"',
  payment_date: 's."payment_date"',
  created_at: 's."created_at"',
  updated_at: 's."updated_at"',
  status: 's."status"',
  type: 's."type"',
  billing_cycle: 's."billing_cycle"',
  rating: 's."rating"',
} as const;

export type SortField = keyof typeof SORT_COLUMNS;

export const DEFAULT_SORT: ListQuery['sort'] = [{ field: 'payment_date', direction: 'asc' }];

/** The searched text: the same expression the trigram index covers, so `like` uses the index. */
const SEARCH_EXPRESSION = `lower(coalesce(s."product_name", '') || ' ' || coalesce(s."brandname", '') || ' ' || coalesce(s."description", '') || ' ' || coalesce(s."note", ''))`;

/**
 * The where part of the list's statement, the order (applied to the page and to the joined rows) and paging.
 * Lists of values are one array parameter each, so the statement texts (prepared by name) stay few.
 */
export function listQuerySql(userId: number, query: ListQuery): { where: string; order: string; params: unknown[] } {
  const conditions = ['s."user_id" = ?', 's."deleted_at" is null'];
  const params: unknown[] = [userId];
  const q = query.q?.trim().toLowerCase();
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    // As the original: the texts, the price and currency, the payment method and category names, and the
    // labels of type, billing cycle and recurring ("trial", "monthly", "once").
    const matches = [
      `${SEARCH_EXPRESSION} like ?`,
      `s."price"::text like ?`,
      `lower(s."price_type") like ?`,
      `s."payment_mode_id" in (select pm."id" from "payment_modes" pm where pm."user_id" = s."user_id" and lower(pm."name") like ?)`,
      `s."category_id" in (select pc."id" from "product_categories" pc where lower(pc."name") like ?)`,
    ];
    params.push(pattern, pattern, pattern, pattern, pattern);
    for (const [column, labels] of [
      ['type', TYPE_LABELS],
      ['billing_cycle', CYCLE_LABELS],
      ['recurring', RECURRING_LABELS],
    ] as const) {
      const codes = Object.entries(labels)
        .filter(([, text]) => text.toLowerCase().includes(q))
        .map(([code]) => Number(code));
      if (codes.length > 0) {
        matches.push(`s."${column}" = any(?::int[])`);
        params.push(intArray(codes));
      }
    }
    conditions.push(`(${matches.join(' or ')})`);
  }
  const { folderIds, tagIds, paymentDate } = query.filters;
  if (folderIds?.length) {
    const ids = folderIds.filter((id) => id !== 0);
    const parts = [];
    if (ids.length) {
      parts.push(`s."folder_id" = any(?::int[])`);
      params.push(intArray(ids));
    }
    if (folderIds.includes(0)) parts.push('s."folder_id" is null');
    conditions.push(`(${parts.join(' or ')})`);
  }
  for (const { key, column } of Object.values(FILTER_COLUMNS)) {
    const values = query.filters[key];
    if (column === null || key === 'folderIds' || !values?.length) continue;
    conditions.push(`${column} = any(?::int[])`);
    params.push(intArray(values));
  }
  if (tagIds?.length) {
    conditions.push(`exists (select 1 from "subscription_tags" st where st."subscription_id" = s."id" and st."tag_id" = any(?::int[]))`);
    params.push(intArray(tagIds));
  }
  if (paymentDate) {
    conditions.push(`s."payment_date" = ?::date`);
    params.push(paymentDate);
  }
  const keys = query.sort.map((key) => `${SORT_COLUMNS[key.field]} ${key.direction} nulls last`);
  const order = `order by ${[...keys, `s."id" ${query.sort[0]?.direction ?? 'asc'}`].join(', ')}`;
  return { where: `where ${conditions.join(' and ')}`, order, params };
}

/** An int[] parameter as PostgreSQL's array text (knex would spread a JS array into a list). */
function intArray(values: number[]): string {
  return `{${values.map((value) => Math.trunc(value)).join(',')}}`;
}
