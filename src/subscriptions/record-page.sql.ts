import sql, { raw, type Sql } from 'sql-template-tag';

import { ProductType } from '../catalogue/product.types';
import { cursorSql, dateTimeSql, enumSql, globalIdSql, jsonObjectSql } from '../platform/graphql/graphql-json.sql';
import type { SelectedField, SelectionReader } from '../platform/graphql/written-answers';
import { logoPathSql } from '../platform/logo-path';
import { BillingCycle, BillingType, RecordStatus, RecordType, Recurring } from '../platform/record-enums';
import { derivedDatesSql } from './payment-dates.sql';
import type { ListQuery } from './subscription.list';
import { listQuerySql, recordSelect } from './subscription.sql';

/**
 * The GraphQL page of records (`subscriptions`: SubscriptionConnection) written whole by PostgreSQL, for the
 * selections made only of fields below: each field's SQL gives the JSON value its resolver gives (the
 * executors' comparison in the tests holds every compiled query of the suite to that). The expressions are
 * over a page row `s` (recordSelect's, with the product's summary) and its derived dates `d`.
 */

/** A field's SQL, or the object's fields' SQL when the field is an object (null when a part does not compile). */
type FieldSql = string | ((field: SelectedField, reader: SelectionReader) => string | null);

/** A type's fields, by GraphQL name. */
type TypeFields = Readonly<Record<string, FieldSql>>;

/** The JSON object of `typeName` for `field`'s selection, from `fields`; null when a field has no SQL here. */
function objectSql(field: SelectedField, reader: SelectionReader, typeName: string, fields: TypeFields): string | null {
  const selected = reader.fieldsOf(field.node.selectionSet, typeName);
  if (!selected) return null;
  const entries: Array<[string, string]> = [];
  for (const each of selected) {
    // Arguments are for fields that take them (a nested connection's page): none of these does.
    if (each.node.arguments?.length) return null;
    const value =
      each.name === '__typename' ? `'${typeName}'` : Object.hasOwn(fields, each.name) ? fields[each.name] : undefined;
    const written = typeof value === 'function' ? value(each, reader) : value;
    if (written === null || written === undefined) return null;
    entries.push([each.key, written]);
  }
  return jsonObjectSql(entries);
}

/** An object field: null when `present` (SQL) is false, else the object. */
const objectOf =
  (typeName: string, fields: TypeFields, present = 'true'): FieldSql =>
  (field, reader) => {
    const object = objectSql(field, reader, typeName, fields);
    return object && (present === 'true' ? object : `(case when ${present} then ${object} end)`);
  };

/** Money (money.ts) of an amount and a currency, null when `present` is false. */
const moneyOf = (amount: string, currency: string, present = 'true') =>
  objectOf('Money', { amount, currency }, present);

const PRODUCT: TypeFields = {
  id: globalIdSql('Product', 's."product_id"'),
  legacyId: 's."product_id"',
  name: 's."product_product_name"',
  brandName: 's."product_brandname"',
  type: enumSql(ProductType, 's."product_product_type"'),
  categoryId: globalIdSql('ProductCategory', 's."product_category_id"'),
  description: 's."product_description"',
  url: 's."product_url"',
  image: `nullif(s."product_image", '')`,
  logo: logoPathSql('s."product_logo_hash"'),
  billingCycle: enumSql(BillingCycle, 's."product_billing_cycle"'),
  billingFrequency: 's."product_billing_frequency"',
  refundDays: 's."product_refund_days"',
  isPrivate: 's."product_owner_id" is not null',
};

const FOLDER: TypeFields = {
  id: globalIdSql('Folder', 's."folder_id"'),
  legacyId: 's."folder_id"',
  name: 's."folder_name"',
  color: 's."folder_color"',
  isDefault: 'coalesce(s."folder_is_default" = 1, false)',
};

const CATEGORY: TypeFields = {
  id: globalIdSql('ProductCategory', 's."category_id"'),
  legacyId: 's."category_id"',
  name: 's."category_name"',
  isGlobal: 's."category_user_id" is null',
  createdAt: dateTimeSql('s."category_created_at"'),
};

const PAYMENT_MODE: TypeFields = {
  id: globalIdSql('PaymentMode', 's."payment_mode_id"'),
  legacyId: 's."payment_mode_id"',
  name: 's."payment_mode_name"',
};

/** SubscriptionRecordView's fields and the resolvers' (subscription.types.ts, subscription.resolver.ts). */
const RECORD: TypeFields = {
  id: globalIdSql('SubscriptionRecord', 's."id"'),
  legacyId: 's."id"',
  productName: 's."product_name"',
  brandName: 's."brandname"',
  image: 's."image"',
  favicon: 's."favicon"',
  logo: logoPathSql('s."logo_hash"'),
  homepage: 's."homepage"',
  description: 's."description"',
  note: 's."note"',
  type: enumSql(RecordType, 's."type"'),
  price: moneyOf('s."price"::text', 's."price_type"'),
  recurring: enumSql(Recurring, 's."recurring"'),
  paymentDate: 's."payment_date"',
  nextPaymentDate: 'd."next_payment_date"',
  lastPaymentDate: 'd."payment_date_upd"',
  billingType: enumSql(BillingType, 's."billing_type"'),
  billingCycle: enumSql(BillingCycle, 's."billing_cycle"'),
  billingFrequency: 's."billing_frequency"',
  status: enumSql(RecordStatus, 's."status"'),
  refundDays: 's."refund_days"',
  refundDate: 'd."refund_date"',
  timezone: 's."timezone"',
  basePrice: moneyOf('s."base_value"', 's."base_currency"'),
  rating: 's."rating"',
  discountVoucher: 's."discount_voucher"',
  companyName: 's."company_name"',
  ltdvalPrice: moneyOf('s."ltdval_price"::text', 's."price_type"', 's."ltdval_price" is not null'),
  ltdvalCycle: enumSql(BillingCycle, 's."ltdval_cycle"'),
  ltdvalFrequency: 's."ltdval_frequency"',
  expiryDate: 's."expiry_date"',
  contractExpiry: 's."contract_expiry"',
  contractNoticeDays: 's."contract_notice_days"',
  mainRecordId: `(case when s."sub_id" is not null then ${globalIdSql('SubscriptionRecord', 's."sub_id"')} end)`,
  createdAt: dateTimeSql('s."created_at"'),
  isAddon: 's."sub_addon" = 1',
  product: objectOf('Product', PRODUCT, 's."product_refund_days" is not null'),
  folder: objectOf('Folder', FOLDER, 'coalesce(s."folder_id", 0) <> 0'),
  category: objectOf('ProductCategory', CATEGORY, 'coalesce(s."category_id", 0) <> 0'),
  paymentMode: objectOf('PaymentMode', PAYMENT_MODE, 'coalesce(s."payment_mode_id", 0) <> 0'),
};

/** An edge's cursor, over the page's rows `x` (`node` and `position`, from 1) and the window `w`. */
const EDGE_CURSOR = cursorSql('w."offset" + x."position" - 1');

/** PageInfo (connection.ts pageOf), over the page's size `t."count"` and the list's `t."total"`. */
const PAGE_INFO: TypeFields = {
  hasNextPage: 'w."offset" + t."count" < t."total"',
  hasPreviousPage: 'w."offset" > 0',
  startCursor: `(case when t."count" > 0 then ${cursorSql('w."offset"')} end)`,
  endCursor: `(case when t."count" > 0 then ${cursorSql('w."offset" + t."count" - 1')} end)`,
};

/** A compiled selection of the page: the connection's JSON over `t`, `w` and the rows `x`, and each node's over `s`, `d`. */
export interface RecordPageSelection {
  connection: string;
  node: string;
}

/**
 * The selection of `subscriptions` (SubscriptionConnection) as SQL, or null when some part of it is not
 * written here (a field with arguments, alerts, tags, priceHistory, a product's price, sharing...).
 */
export function compileRecordPage(field: SelectedField, reader: SelectionReader): RecordPageSelection | null {
  let node: string | null | undefined;
  const nodeOnce = (each: SelectedField): string | null => {
    const written = objectSql(each, reader, 'SubscriptionRecord', RECORD);
    // Edges' nodes and nodes are the same records: both are selected the same way or not compiled.
    if (node !== undefined && node !== written) return null;
    node = written;
    return written;
  };
  const connection = objectSql(field, reader, 'SubscriptionConnection', {
    totalCount: 't."total"',
    edges: (edges) => {
      const edge = objectSql(edges, reader, 'SubscriptionEdge', {
        cursor: EDGE_CURSOR,
        node: (each) => nodeOnce(each) && 'x."node"',
      });
      return edge && `(select coalesce(json_agg(${edge} order by x."position"), '[]') from "rows" x)`;
    },
    nodes: (nodes) =>
      nodeOnce(nodes) && `(select coalesce(json_agg(x."node" order by x."position"), '[]') from "rows" x)`,
    pageInfo: objectOf('PageInfo', PAGE_INFO),
  });
  return connection ? { connection, node: node ?? 'null' } : null;
}

/**
 * The page of `query` (its window: `start`, `length` of at least 1) as `selection` writes it, at `now`: one row,
 * its `json`. Past the last record no row carries the list's total, so it is counted apart.
 */
export function recordPageSql(userId: number, selection: RecordPageSelection, query: ListQuery, now: Date): Sql {
  const { where, order } = listQuerySql(userId, query);
  const page = recordSelect(sql`${where} ${order} limit ${query.length} offset ${query.start}`, order, {
    total: true,
    productSummary: true,
  });
  return sql`with "page" as (${page}),
    "rows" as (select ${raw(selection.node)} as "node", row_number() over (${order}) as "position", s."total_count"
      from "page" s ${derivedDatesSql(now)})
    select ${raw(selection.connection)}::text as "json"
      from (select ${query.start}::int as "offset") w
      cross join lateral (select coalesce((select r."total_count" from "rows" r limit 1),
          case when w."offset" = 0 then 0 else (select count(*) from "subscriptions" s ${where}) end)::int as "total",
        (select count(*) from "rows")::int as "count") t`;
}
