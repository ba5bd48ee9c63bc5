import { DEFINITION_SELECT } from '../alerts/alert.repository';
import { PRODUCT_AS_ENTITY } from '../catalogue/product.repository';
import { globalOrOwnSql } from '../platform/caller';
import { intArray } from '../platform/db/statements';
import { escapeLike } from '../platform/objects';
import { CYCLE_LABELS, RECURRING_LABELS, Status, TYPE_LABELS } from './codes';
import { RECORD_FIELDS } from './subscription.fields';
import type { ListQuery, SortField } from './subscription.list';

/** The SQL of the subscriptions repository: the record read and the list's where and order. */

/** A record's stored columns that are not value fields of the field table (links, product copies, bookkeeping). */
const OTHER_COLUMNS = [
  'id',
  'user_id',
  'folder_id',
  'product_id',
  'category_id',
  'payment_mode_id',
  'sub_id',
  'platform_id',
  'image',
  'favicon',
  'product_name',
  'brandname',
  'product_type',
  'homepage',
  'pay_gateway_id',
  'alert_type',
  'sub_addon',
  'created_at',
  'updated_at',
  'created_by',
  'deleted_at',
];

/** The record's own columns: the field table's (a value field's REST name is its column) and the others. */
const RECORD_COLUMNS = [
  ...[...OTHER_COLUMNS, ...RECORD_FIELDS.map((field) => field.rest)].map((column) => `s."${column}"`),
  // alert_id 0 means "no alert" on the wire; the column holds null.
  'coalesce(s."alert_id", 0) as "alert_id"',
].join(', ');

/**
 * An amount in the base currency (the user `u`'s unless named): exact decimal through the dollar rates (`perUsd` of the amount's currency,
 * `basePerUsd` of the base currency), half away from zero; as it stands when the currencies agree (or,
 * defensively, a rate is missing: creates refuse such currencies).
 */
export function baseAmountSql(
  amount: string,
  currency: string,
  perUsd: string,
  basePerUsd: string,
  baseCurrency = 'u."base_currency"',
): string {
  return `(case when ${currency} = ${baseCurrency} or ${perUsd} is null or ${basePerUsd} is null then ${amount}
  else round(${amount} * ${basePerUsd} / ${perUsd}, 2) end)`;
}

/** The record's price in the base currency, with `u` the user, `rp` and `rb` the rates of the price and base currencies (RATE_JOINS). */
export const BASE_AMOUNT = baseAmountSql('s."price"', 's."price_type"', 'rp."per_usd"', 'rb."per_usd"');
const BASE_VALUE = `${BASE_AMOUNT}::text`;

/** The joins BASE_AMOUNT reads. */
export const RATE_JOINS = `join "users" u on u."id" = s."user_id"
  left join "exchange_rates" rp on rp."currency" = s."price_type"
  left join "exchange_rates" rb on rb."currency" = u."base_currency"`;

/** The rest of the product's summary (GraphQL's nested product), for reads that answer it with the record. */
const PRODUCT_SUMMARY_COLUMNS = `, p."owner_id" as "product_owner_id", p."url" as "product_url", p."image" as "product_image",
       p."currency_code" as "product_currency_code", p."price1_value" as "product_price1_value", p."billing_cycle" as "product_billing_cycle",
       p."billing_frequency" as "product_billing_frequency", p."refund_days" as "product_refund_days"`;

/**
 * The one read query of subscription records, with everything the documented shapes need in one statement:
 * folder, payment mode, alert, category and product names, and the two exchange rates for base_value.
 * `filter` (where, order, limit on the subscriptions table alone) runs first, so the names are joined onto the
 * page only, not onto every row of the user; `order` sorts the joined page the same way.
 */
export function recordSelect(
  filter: string,
  order = '',
  options: { total?: boolean; productSummary?: boolean } = {},
): string {
  // A window count runs before the limit: how many rows the filter matches in all, on every row of the page.
  const total = options.total ? ', count(*) over () as "total_count"' : '';
  return recordSelectFrom(`select *${total} from "subscriptions" s ${filter}`, order, options);
}

/**
 * What a change reads beside each record: the version of the stored row (its `xmin`, which every update of
 * the row replaces), its status before the change, the columns the change lays over it (which its write
 * stores), its tags, and its alerts with their definitions.
 */
const CHANGE_COLUMNS = `, s."row_version", s."status_before", s."laid",
       (select coalesce(jsonb_agg(jsonb_build_object('id', t."id", 'name', t."name") order by t."name"), '[]')
          from "subscription_tags" st join "tags" t on t."id" = st."tag_id" where st."subscription_id" = s."id") as "tags",
       array(select s."alert_id" where s."alert_id" is not null
             union select sa."alert_id" from "subscription_alerts" sa where sa."subscription_id" = s."id") as "alert_ids",
       (select coalesce(jsonb_agg(d), '[]') from (${DEFINITION_SELECT}
          where "id" = s."alert_id" or "id" in (select sa."alert_id" from "subscription_alerts" sa where sa."subscription_id" = s."id")) d) as "definitions"`;

/** The add-ons a change of a main record carries along, by the change. */
export type AddonScope = 'none' | 'active' | 'unrefunded' | 'live';

const ADDON_CONDITIONS: Record<AddonScope, string> = {
  none: 'false',
  active: `s0."status" = ${Status.Active}`,
  unrefunded: `s0."status" <> ${Status.Refunded}`,
  live: 'true',
};

/**
 * A live record and the add-ons `addons` names, each as it will read once the change is stored: one JSON
 * object of columns laid over every row, after the copies of a product (a JSON object of PRODUCT_AS_ENTITY)
 * when `copiesProduct`, with CHANGE_COLUMNS. `lock` holds the rows for the rest of the transaction the caller
 * runs in; without it, the write checks the row versions instead. Parameters: the product and the default
 * image when it copies one, the columns, the user's id, the record's id twice.
 */
export function changeReadSql(addons: AddonScope, lock: boolean, copiesProduct: boolean): string {
  const laid = copiesProduct ? `${productCopiesSql('?::jsonb', '?::text')} || ?::jsonb` : '?::jsonb';
  return recordSelectFrom(
    `select s1.*, s0."xmin"::text as "row_version", s0."status" as "status_before", c."laid"
       from (select ${laid} as "laid") c cross join "subscriptions" s0 cross join lateral jsonb_populate_record(s0, c."laid") s1
      where s0."user_id" = ? and s0."deleted_at" is null and (s0."id" = ? or (s0."sub_id" = ? and ${ADDON_CONDITIONS[addons]}))
      ${lock ? 'for update of s0' : ''}`,
    'order by s."id"',
    { change: true },
  );
}

/**
 * The columns a record copies from its product (`product`: a JSON object of PRODUCT_AS_ENTITY), with
 * `defaultImage` where the product has no image or favicon, and the product's category, which a record's own
 * category_id overrides.
 */
function productCopiesSql(product: string, defaultImage: string): string {
  return `(select jsonb_build_object('product_id', (x."p"->>'id')::int, 'product_name', x."p"->>'productName',
            'brandname', case when x."p"->>'owner' is null then x."p"->>'brandname' end, 'product_type', (x."p"->>'productType')::int,
            'image', coalesce(nullif(x."p"->>'image', ''), x."d"), 'favicon', coalesce(nullif(x."p"->>'favicon', ''), x."d"),
            'homepage', x."p"->>'url', 'category_id', (x."p"->>'category')::int)
     from (select ${product} as "p", ${defaultImage} as "d") x)`;
}

/**
 * Records changed to their new columns (one JSON object per record, all with the same keys), each only if
 * its stored row is still the version read (`?` a JSON object of id to version): `changed` holds the ids
 * changed, for the statement's final `expect_rows`. `columns` come from the entity's metadata, never from input.
 */
export function changeRecordsSql(columns: readonly string[]): string {
  return `"changed" as (
         update "subscriptions" s set ${columns.map((column) => `"${column}" = v."${column}"`).join(', ')}
           from jsonb_populate_recordset(null::"subscriptions", ?::jsonb) v
          where s."id" = v."id" and s."xmin" = (?::jsonb ->> v."id"::text)::xid
         returning s."id")`;
}

/** A record's tags become exactly these (as a part of a change's statement). */
export const REPLACE_TAGS = `"tags_dropped" as (
         delete from "subscription_tags" where "subscription_id" = ? and not ("tag_id" = any(?::int[]))),
       "tags_added" as (
         insert into "subscription_tags" ("subscription_id", "tag_id") select ?, unnest(?::int[]) on conflict do nothing)`;

/** A change's statement ends here: all its rows changed, or none (see the expect_rows migration). */
export const EXPECT_CHANGED = `select "expect_rows"(?, (select count(*) from "changed"))`;

function recordSelectFrom(
  source: string,
  order = '',
  options: { total?: boolean; productSummary?: boolean; change?: boolean } = {},
): string {
  return `
select ${RECORD_COLUMNS}${options.total ? ', s."total_count"' : ''}${options.productSummary ? PRODUCT_SUMMARY_COLUMNS : ''}${options.change ? CHANGE_COLUMNS : ''},
       u."base_currency",
       ${BASE_VALUE} as "base_value",
       f."name" as "folder_name", f."color" as "folder_color", pm."name" as "payment_mode_name", a."alert_name",
       pc."name" as "category_name", pc."user_id" as "category_user_id", pc."created_at" as "category_created_at", p."brandname" as "product_brandname", f."is_default" as "folder_is_default",
       p."product_name" as "product_product_name", p."category_id" as "product_category_id", p."product_type" as "product_product_type",
       p."description" as "product_description",
       null as "next_payment_date", null as "payment_date_upd", null as "refund_date"
  from (${source}) s
  ${RATE_JOINS}
  left join "folders" f on f."id" = s."folder_id"
  left join "payment_modes" pm on pm."id" = s."payment_mode_id"
  left join "alerts" a on a."id" = s."alert_id"
  left join "product_categories" pc on pc."id" = s."category_id"
  left join "products" p on p."id" = s."product_id"
  ${order}`;
}

/** The columns the list's filters test (folders, with their "no folder" 0, and tags are written out below). */
const FILTER_COLUMNS: Array<[Exclude<keyof ListQuery['filters'], 'paymentDate' | 'folderIds' | 'tagIds'>, string]> = [
  ['types', 's."type"'],
  ['billingCycles', 's."billing_cycle"'],
  ['statuses', 's."status"'],
  ['recurring', 's."recurring"'],
  ['ratings', 's."rating"'],
  ['paymentModeIds', 's."payment_mode_id"'],
  ['alertIds', 'coalesce(s."alert_id", 0)'],
  ['categoryIds', 's."category_id"'],
];

const SORT_COLUMNS: Record<SortField, string> = {
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
};

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
  for (const [key, column] of FILTER_COLUMNS) {
    const values = query.filters[key];
    if (!values?.length) continue;
    conditions.push(`${column} = any(?::int[])`);
    params.push(intArray(values));
  }
  if (tagIds?.length) {
    conditions.push(
      `exists (select 1 from "subscription_tags" st where st."subscription_id" = s."id" and st."tag_id" = any(?::int[]))`,
    );
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

/** Where LINK_PLAN takes each value of an ask from: a parameter each, or a field of a JSON ask in scope. */
type AskValue =
  | 'currency'
  | 'productId'
  | 'productName'
  | 'folderId'
  | 'categoryId'
  | 'alertId'
  | 'paymentModeId'
  | 'tagIds'
  | 'tagNames';

/**
 * Everything a create (or an update that names links) needs to know before it writes, in one read: the owner's zone, whether its currency is known, the product it names (by id, global or the owner's; or the owner's private
 * product of that name), whether each linked row exists for the owner, the tags it names (by id or name) and
 * its alert's definition. A link left out is asked for as null and reads as not found. Its `?`s that are not
 * the ask's take the user's id.
 */
function linkPlanSql(ask: (value: AskValue) => string): string {
  return `
select u."timezone",
       exists (select 1 from "exchange_rates" r where r."currency" = ${ask('currency')}) as "currency_known",
       (select to_jsonb(p) from (${PRODUCT_AS_ENTITY}
         where ("id" = ${ask('productId')} and ${globalOrOwnSql('"owner_id"')}) or ("owner_id" = u."id" and "product_name" = ${ask('productName')}) limit 1) p) as "product",
       exists (select 1 from "folders" f where f."id" = ${ask('folderId')} and f."user_id" = u."id") as "folder_found",
       exists (select 1 from "product_categories" pc where pc."id" = ${ask('categoryId')} and ${globalOrOwnSql('pc."user_id"')}) as "category_found",
       exists (select 1 from "alerts" a where a."id" = ${ask('alertId')} and ${globalOrOwnSql('a."user_id"')}) as "alert_found",
       exists (select 1 from "payment_modes" pm where pm."id" = ${ask('paymentModeId')} and pm."user_id" = u."id") as "payment_mode_found",
       (select coalesce(jsonb_agg(jsonb_build_object('id', t."id", 'name', t."name") order by t."name"), '[]') from "tags" t
         where t."user_id" = u."id" and (t."id" = any(${ask('tagIds')}) or t."name" in (select jsonb_array_elements_text(${ask('tagNames')})))) as "tags",
       (select coalesce(jsonb_agg(d), '[]') from (${DEFINITION_SELECT} where "id" = ${ask('alertId')}) d) as "definitions"
  from "users" u where u."id" = ?`;
}

const ASK_PARAMETERS: Record<AskValue, string> = {
  currency: '?',
  productId: '?::int',
  productName: '?::text',
  folderId: '?::int',
  categoryId: '?::int',
  alertId: '?::int',
  paymentModeId: '?::int',
  tagIds: '?::int[]',
  tagNames: '?::jsonb',
};

/** One ask's plan, its values as parameters (in the order of linkPlanSql's text). */
export const LINK_PLAN = linkPlanSql((value) => ASK_PARAMETERS[value]);

/**
 * An update's plan: LINK_PLAN's, and whether the record updated is the user's live record ("record_found").
 * Parameters: the record's id, the user's id, then LINK_PLAN's.
 */
export const UPDATE_LINK_PLAN = `select p.*, exists (select 1 from "subscriptions" s where s."id" = ?::int and s."user_id" = ? and s."deleted_at" is null) as "record_found"
  from (${LINK_PLAN}) p`;

/**
 * A create's plan and preview in one read. `plans`: the plan of each ask of a JSON array (by its position
 * `n` from 1). Then each new record of a JSON array of [its ask's index from 0, its columns], in order: its
 * plan as the JSON column "plan", the columns it would store as "stored" (its product's copies and category,
 * the owner's zone, its own columns over those, and an id drawn here unless they hold one) and, as the record
 * read will answer it once stored, the record itself. While the product of any ask is not found (not made
 * yet, or missing) no record has either, so a batch draws its ids in one read, in its order. Parameters: the
 * asks, the user's id four times, the default image, the records.
 */
export const PLANNED_PREVIEWS = `
with "plans" as (
  select e."n", plan.* from jsonb_array_elements(?::jsonb) with ordinality e("ask", "n")
   cross join lateral (${linkPlanSql((value) =>
     value === 'tagIds'
       ? `array(select jsonb_array_elements_text(e."ask"->'tagIds')::int)`
       : value === 'tagNames'
         ? `(e."ask"->'tagNames')`
         : `(e."ask"->>'${value}')${ASK_PARAMETERS[value].slice(1)}`,
   )}) plan),
"stored" as (
  select r."n", to_jsonb(pl) - 'n' as "plan",
         case when not exists (select from "plans" where "product" is null) then ${productCopiesSql('pl."product"', '?::text')} || jsonb_build_object('timezone', pl."timezone")
           || (r."value"->1) || jsonb_build_object('id', coalesce((r."value"->1->>'id')::int, nextval('subscriptions_id_seq'))) end as "stored"
    from jsonb_array_elements(?::jsonb) with ordinality r("value", "n") join "plans" pl on pl."n" = (r."value"->>0)::int + 1
   order by r."n")
select st."plan", st."stored", pv.*
  from "stored" st left join lateral (${recordSelectFrom(`select * from jsonb_populate_record(null::"subscriptions", st."stored") where st."stored" is not null`)}) pv on true
 order by st."n"`;

/**
 * New records inserted with their tags, the alerts kept beside their alert_id and the statement's other parts (their events, deliveries and
 * reminders), all or nothing as one statement. `columns` are the keys of the records' JSON objects (from the
 * entity's metadata, never from input); a key a record lacks is null.
 */
export function insertRecordsSql(columns: readonly string[]): string {
  const list = columns.map((column) => `"${column}"`).join(', ');
  return `"created" as (
         insert into "subscriptions" (${list}) select ${list} from jsonb_populate_recordset(null::"subscriptions", ?::jsonb)),
       "created_tags" as (
         insert into "subscription_tags" ("subscription_id", "tag_id")
         select (link->>0)::int, (link->>1)::int from jsonb_array_elements(?::jsonb) link),
       "created_alerts" as (
         insert into "subscription_alerts" ("subscription_id", "alert_id", "position")
         select (link->>0)::int, (link->>1)::int, (link->>2)::int from jsonb_array_elements(?::jsonb) link)`;
}
