import { escapeLike } from '../objects';

/** Paging, search, filters and order of the record list (REST operation 8, GraphQL subscriptions). */
export interface ListQuery {
  q?: string;
  start: number;
  length: number;
  sort: { field: SortField; direction: 'asc' | 'desc' };
  filters: {
    /** 0 stands for "no folder". */
    folderIds?: number[];
    types?: number[];
    billingCycles?: number[];
    statuses?: number[];
  };
}

export const DEFAULT_LENGTH = 100;
export const MAX_LENGTH = 1000;

/** Fields a list may be sorted on, and their columns. */
export const SORT_COLUMNS = {
  id: 's."id"',
  product_name: 'lower(s."product_name")',
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

export const DEFAULT_SORT: ListQuery['sort'] = { field: 'payment_date', direction: 'asc' };

/** The searched text: the same expression the trigram index covers, so `like` uses the index. */
const SEARCH_EXPRESSION = `lower(coalesce(s."product_name", '') || ' ' || coalesce(s."brandname", '') || ' ' || coalesce(s."description", '') || ' ' || coalesce(s."note", ''))`;

/**
 * The where part of the list's statement, the order (applied to the page and to the joined rows) and paging.
 * Lists of values are one array parameter each, so the statement texts (prepared by name) stay few.
 */
export function listQuerySql(userId: number, query: ListQuery): { where: string; order: string; params: unknown[] } {
  const conditions = ['s."user_id" = ?', 's."deleted_at" is null'];
  const params: unknown[] = [userId];
  const q = query.q?.trim();
  if (q) {
    conditions.push(`${SEARCH_EXPRESSION} like ?`);
    params.push(`%${escapeLike(q.toLowerCase())}%`);
  }
  const { folderIds, types, billingCycles, statuses } = query.filters;
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
  for (const [column, values] of [['type', types], ['billing_cycle', billingCycles], ['status', statuses]] as const) {
    if (values?.length) {
      conditions.push(`s."${column}" = any(?::int[])`);
      params.push(intArray(values));
    }
  }
  const order = `order by ${SORT_COLUMNS[query.sort.field]} ${query.sort.direction} nulls last, s."id" ${query.sort.direction}`;
  return { where: `where ${conditions.join(' and ')}`, order, params };
}

/** An int[] parameter as PostgreSQL's array text (knex would spread a JS array into a list). */
function intArray(values: number[]): string {
  return `{${values.map((value) => Math.trunc(value)).join(',')}}`;
}
