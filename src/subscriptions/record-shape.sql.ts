import sql, { empty, raw, type Sql } from 'sql-template-tag';

import {
  BILLING_TYPE_LABELS,
  CYCLE_LABELS,
  PRODUCT_TYPE_LABELS,
  RECURRING_LABELS,
  STATUS_LABELS,
  SUB_ADDON_LABELS,
  TYPE_LABELS,
} from './codes';
import { derivedDatesSql } from './payment-dates.sql';

/**
 * The Subscription record of the spec (record-shape.ts) and the list's item (presentListItem), made by
 * PostgreSQL: each record's JSON text in the same key order with the same values, so that an answer of
 * records is the database's text sent as it is. test/integration/record-json.test.ts holds the two to the
 * same objects.
 */

/** A code's label, null for an unknown code (label() in codes.ts). */
function labelSql(labels: Record<number, string>, column: string): string {
  const cases = Object.entries(labels).map(([code, text]) => `when ${Number(code)} then '${text.replace(/'/g, "''")}'`);
  return `(case ${column} ${cases.join(' ')} end)`;
}

/** presentSubscription's keys and values, over a record read `s` and its derived dates `d`. */
const RECORD_COLUMNS: Array<[key: string, value: string]> = [
  ['id', 's."id"'],
  ['user_id', 's."user_id"'],
  ['folder_id', 'coalesce(s."folder_id", 0)'],
  ['brand_id', 's."product_id"'],
  ['category_id', 's."category_id"'],
  ['alert_id', 's."alert_id"'],
  ['platform_id', 's."platform_id"'],
  ['type', 's."type"'],
  ['image', 's."image"'],
  ['favicon', 's."favicon"'],
  ['product_name', 's."product_name"'],
  ['brandname', 's."brandname"'],
  ['product_type', 's."product_type"'],
  ['description', 's."description"'],
  // A JSON number as JavaScript writes Number(price): float8's shortest exact text.
  ['price', 's."price"::float8'],
  ['price_type', 's."price_type"'],
  ['recurring', 's."recurring"'],
  ['payment_date', 's."payment_date"'],
  ['next_payment_date', 'd."next_payment_date"'],
  ['payment_date_upd', 'd."payment_date_upd"'],
  ['expiry_date', 's."expiry_date"'],
  ['contract_expiry', 's."contract_expiry"'],
  ['homepage', 's."homepage"'],
  ['pay_gateway_id', 's."pay_gateway_id"'],
  ['note', 's."note"'],
  ['company_name', 's."company_name"'],
  ['discount_voucher', 's."discount_voucher"'],
  ['payment_mode', 's."payment_mode_name"'],
  ['payment_mode_id', 's."payment_mode_id"'],
  ['include_notes', 'null'],
  ['alert_type', 's."alert_type"'],
  ['url', 's."homepage"'],
  ['support_details', 'null'],
  ['tags', 'null'],
  ['billing_frequency', 's."billing_frequency"'],
  ['billing_cycle', 's."billing_cycle"'],
  ['billing_type', 's."billing_type"'],
  ['ltdval_price', 's."ltdval_price"::text'],
  ['ltdval_frequency', 's."ltdval_frequency"'],
  ['ltdval_cycle', 's."ltdval_cycle"'],
  ['status', 's."status"'],
  ['pricing_type', 's."type"'],
  ['timezone', 's."timezone"'],
  ['currency_code', 's."price_type"'],
  ['refund_days', 's."refund_days"'],
  ['refund_date', 'd."refund_date"'],
  ['base_value', 's."base_value"'],
  ['base_currency', 's."base_currency"'],
  ['rating', 's."rating"'],
  ['sub_addon', 's."sub_addon"'],
  ['sub_id', 's."sub_id"'],
  ['created_at', `to_char(s."created_at", 'YYYY-MM-DD HH24:MI:SS')`],
  ['created_by', 's."created_by"'],
  ['type_value', labelSql(TYPE_LABELS, 's."type"')],
  ['recurring_value', labelSql(RECURRING_LABELS, 's."recurring"')],
  ['billing_cycle_value', labelSql(CYCLE_LABELS, 's."billing_cycle"')],
  ['billing_type_value', labelSql(BILLING_TYPE_LABELS, 's."billing_type"')],
  ['ltdval_cycle_value', labelSql(CYCLE_LABELS, 's."ltdval_cycle"')],
  ['status_value', labelSql(STATUS_LABELS, 's."status"')],
  ['pricing_type_value', labelSql(TYPE_LABELS, 's."type"')],
  ['sub_addon_value', labelSql(SUB_ADDON_LABELS, 's."sub_addon"')],
];

/** presentListItem's additions: the names the list joins in. */
const LIST_ITEM_COLUMNS: Array<[key: string, value: string]> = [
  ['brand_name', 'coalesce(s."product_brandname", s."brandname")'],
  ['product_type_name', labelSql(PRODUCT_TYPE_LABELS, 's."product_type"')],
  ['product_category_name', 's."category_name"'],
  ['folder_color', 's."folder_color"'],
  ['folder_name', 's."folder_name"'],
  ['payment_method_name', 's."payment_mode_name"'],
  ['alert_name', 's."alert_name"'],
  ['attachment_count', '0'],
];

const selectList = (columns: Array<[string, string]>) =>
  columns.map(([key, value]) => `${value} as "${key}"`).join(', ');

const SHAPES = {
  record: selectList(RECORD_COLUMNS),
  listItem: selectList([...RECORD_COLUMNS, ...LIST_ITEM_COLUMNS]),
};

export type RecordJsonShape = keyof typeof SHAPES;

/**
 * Each record of `records` (a record read, recordSelect's) as its JSON text in `shape`, one row each
 * (`json`, and its `position` from 1), ordered by `order` (over `s`, with the derived dates as `d`); `where`
 * (over `s` and `d`) filters on what is derived at `now`.
 */
export function recordJsonSql(
  records: Sql,
  shape: RecordJsonShape,
  now: Date,
  options: { where?: Sql; order: Sql },
): Sql {
  return sql`select row_to_json(r)::text as "json", row_number() over (${options.order}) as "position"
    from (${records}) s
    ${derivedDatesSql(now)}
    cross join lateral (select ${raw(SHAPES[shape])}) r
    ${options.where ?? empty}
    ${options.order}`;
}

/**
 * A JSON array of records written by the database: its bytes in parts, in order (brackets and commas included,
 * so the parts are the array as they stand), and how many records it holds.
 */
export interface JsonArray {
  parts: Buffer[];
  count: number;
}

/** Records per part of a JSON array: about 40 KB. */
const RECORDS_PER_PART = 25;

/**
 * The records of a recordJsonSql statement as the parts of one JSON array (a row each, `part` in order, the
 * first opening the array and the last closing it), after `check` (one row while the caller's token is live,
 * with the caller's data version) when one is given: then no row at all when the token is not live, and one
 * with no part when there is no record. Parts, neither a row per record (the rows of a large answer arrived
 * over several reads of the socket, and those that waited for the rest outlived the young generation) nor one
 * text (past 128 KB a string is allocated in the old generation, which then filled and was collected every few
 * dozen answers). Read with VARCHAR_AS_BYTES, so that no part lives on as a string.
 */
export function jsonArraySql(records: Sql, check?: Sql): Sql {
  const parts = sql`select g."part", (case when g."part" = 0 then '[' else ',' end || g."json"
      || case when g."part" = max(g."part") over () then ']' else '' end)::varchar as "json", g."count"
    from (select (x."position" - 1) / ${RECORDS_PER_PART}::int as "part", string_agg(x."json", ',' order by x."position") as "json",
      count(*)::int as "count" from (${records}) x group by 1) g`;
  return partsInOrderSql(parts, check);
}

/** Characters per part of one JSON text: at most 64 KB however wide its characters, well under 128 KB. */
const PART_CHARACTERS = 16_384;

/**
 * The one JSON text a statement writes (its `json` column) as parts of at most PART_CHARACTERS, a row each,
 * `part` in order, after `check` as for jsonArraySql: for the reasons parts are read there, and read with
 * VARCHAR_AS_BYTES too.
 */
export function jsonTextPartsSql(statement: Sql, check?: Sql): Sql {
  return partsInOrderSql(
    sql`select p."part", substr(j."json", p."part" * ${PART_CHARACTERS}::int + 1, ${PART_CHARACTERS}::int)::varchar as "json"
    from (${statement}) j cross join lateral generate_series(0, greatest(length(j."json") - 1, 0) / ${PART_CHARACTERS}::int) p("part")`,
    check,
  );
}

/** A statement's parts (its `part` column) in order, after the caller's token check `check` when one is given. */
function partsInOrderSql(parts: Sql, check: Sql | undefined): Sql {
  return check ? sql`${checkedSql(parts, check)} order by a."part"` : sql`${parts} order by 1`;
}

/**
 * `statement`'s rows (as `a`) after the caller's token check `check` (one row while the token is live): its
 * data version and renewal on every row, and no row at all when the token is not live.
 */
function checkedSql(statement: Sql, check: Sql): Sql {
  return sql`select c."data_version", c."renew", a.* from (${check}) c left join lateral (${statement}) a on true`;
}
