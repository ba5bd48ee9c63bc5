import sql, { empty, join, raw, type Sql } from 'sql-template-tag';

import { DEFINITION_SELECT } from '../alerts/alert.repository';
import { PRODUCT_AS_ENTITY } from '../catalogue/product.repository';
import { globalOrOwnSql } from '../platform/caller';
import { intArray } from '../platform/db/statements';
import { escapeLike } from '../platform/objects';
import { CYCLE_LABELS, RECURRING_LABELS, Status, TYPE_LABELS } from './codes';
import { RECORD_FIELDS } from './subscription.fields';
import type { ListQuery, SortField } from './subscription.list';
import type { LinkPlanAsk } from './subscription.repository';

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
       p."billing_frequency" as "product_billing_frequency", p."refund_days" as "product_refund_days", p."logo_hash" as "product_logo_hash"`;

/**
 * The one read query of subscription records, with everything the documented shapes need in one statement:
 * folder, payment mode, alert, category and product names, and the two exchange rates for base_value.
 * `filter` (where, order, limit on the subscriptions table alone) runs first, so the names are joined onto the
 * page only, not onto every row of the user; `order` sorts the joined page the same way.
 */
export function recordSelect(
  filter: Sql,
  order: Sql = empty,
  options: { total?: boolean; productSummary?: boolean } = {},
): Sql {
  // A window count runs before the limit: how many rows the filter matches in all, on every row of the page.
  const total = options.total ? raw(', count(*) over () as "total_count"') : empty;
  return recordSelectFrom(sql`select *${total} from "subscriptions" s ${filter}`, order, options);
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

/** The add-ons a change of a main record carries along, by the change ('deletedWith': a restore's). */
export type AddonScope = 'none' | 'active' | 'unrefunded' | 'live' | 'deletedWith';

const ADDON_CONDITIONS: Record<AddonScope, string> = {
  none: 'false',
  active: `s0."status" = ${Status.Active}`,
  unrefunded: `s0."status" <> ${Status.Refunded}`,
  live: 'true',
  deletedWith: 'true',
};

/** What a change reads: the user's record `id` and its add-ons in `addons`, with `laid` (a JSON object of columns) over each. */
export interface ChangeReadAsk {
  userId: number;
  id: number;
  addons: AddonScope;
  laid: Sql;
  /** Holds the rows for the rest of the transaction the caller runs in; without it the write checks versions. */
  lock: boolean;
}

/**
 * A record and the add-ons `addons` names, each as it will read once the change is stored: one JSON object
 * of columns laid over every row, with CHANGE_COLUMNS. A live record, or for 'deletedWith' a deleted one and
 * the add-ons deleted with it (at the same instant).
 */
export function changeReadSql({ userId, id, addons, laid, lock }: ChangeReadAsk): Sql {
  const found =
    addons === 'deletedWith'
      ? sql`((s0."id" = ${id} and s0."deleted_at" is not null)
             or (s0."sub_id" = ${id} and s0."deleted_at" = (select m."deleted_at" from "subscriptions" m where m."id" = ${id})))`
      : sql`s0."deleted_at" is null and (s0."id" = ${id} or (s0."sub_id" = ${id} and ${raw(ADDON_CONDITIONS[addons])}))`;
  return recordSelectFrom(
    sql`select s1.*, s0."xmin"::text as "row_version", s0."status" as "status_before", c."laid"
          from (select ${laid} as "laid") c cross join "subscriptions" s0
         cross join lateral jsonb_populate_record(s0, c."laid") s1
         where s0."user_id" = ${userId} and ${found}
         ${lock ? raw('for update of s0') : empty}`,
    raw('order by s."id"'),
    { change: true },
  );
}

/** The columns a change lays over a record: its own, after the copies of a product when it names one. */
export function laidColumnsSql(
  columns: Record<string, unknown>,
  copied?: { product: unknown; defaultImage: string },
): Sql {
  const own = sql`${JSON.stringify(columns)}::jsonb`;
  if (!copied) return own;
  return sql`${productCopiesSql(sql`${JSON.stringify(copied.product)}::jsonb`, sql`${copied.defaultImage}::text`)} || ${own}`;
}

/**
 * The columns a record copies from its product (`product`: a JSON object of PRODUCT_AS_ENTITY), with
 * `defaultImage` where the product has no image or favicon, and the product's category, which a record's own
 * category_id overrides.
 */
function productCopiesSql(product: Sql, defaultImage: Sql): Sql {
  return sql`(select jsonb_build_object('product_id', (x."p"->>'id')::int, 'product_name', x."p"->>'productName',
            'brandname', case when x."p"->>'owner' is null then x."p"->>'brandname' end, 'product_type', (x."p"->>'productType')::int,
            'image', coalesce(nullif(x."p"->>'image', ''), x."d"), 'favicon', coalesce(nullif(x."p"->>'favicon', ''), x."d"),
            'homepage', x."p"->>'url', 'category_id', (x."p"->>'category')::int)
     from (select ${product} as "p", ${defaultImage} as "d") x)`;
}

/**
 * Records changed to their new columns (`rows`: one object per record, all with the same keys), each only if
 * its stored row is still the version read (`versions`: id to version): `changed` holds the ids changed, for
 * the statement's final expectChangedSql. The columns come from the entity's metadata, never from input.
 */
export function changeRecordsSql(rows: ReadonlyArray<Record<string, unknown>>, versions: Record<number, string>): Sql {
  const columns = Object.keys(rows[0]).filter((column) => column !== 'id');
  const assignments = raw(columns.map((column) => `"${column}" = v."${column}"`).join(', '));
  return sql`"changed" as (
         update "subscriptions" s set ${assignments}
           from jsonb_populate_recordset(null::"subscriptions", ${JSON.stringify(rows)}::jsonb) v
          where s."id" = v."id" and s."xmin" = (${JSON.stringify(versions)}::jsonb ->> v."id"::text)::xid
         returning s."id")`;
}

/** A record's tags become exactly these (as a part of a change's statement). */
export function replaceTagsSql(id: number, tagIds: readonly number[]): Sql {
  const ids = intArray(tagIds);
  return sql`"tags_dropped" as (
         delete from "subscription_tags" where "subscription_id" = ${id} and not ("tag_id" = any(${ids}::int[]))),
       "tags_added" as (
         insert into "subscription_tags" ("subscription_id", "tag_id")
         select ${id}, unnest(${ids}::int[]) on conflict do nothing)`;
}

/** A record's alerts beside its alert_id become exactly these, in order (positions from 1), as a part of a change. */
export function replaceExtraAlertsSql(id: number, alertIds: readonly number[]): Sql {
  const ids = intArray(alertIds);
  return sql`"alerts_dropped" as (
         delete from "subscription_alerts" where "subscription_id" = ${id} and not ("alert_id" = any(${ids}::int[]))),
       "alerts_added" as (
         insert into "subscription_alerts" ("subscription_id", "alert_id", "position")
         select ${id}, a."alert_id", a."position"
           from unnest(${ids}::int[]) with ordinality a("alert_id", "position")
         on conflict ("subscription_id", "alert_id") do update set "position" = excluded."position")`;
}

/** A change's statement ends here: all its `count` rows changed, or none (see the expect_rows migration). */
export function expectChangedSql(count: number): Sql {
  return sql`select "expect_rows"(${count}, (select count(*) from "changed"))`;
}

function recordSelectFrom(
  source: Sql,
  order: Sql = empty,
  options: { total?: boolean; productSummary?: boolean; change?: boolean } = {},
): Sql {
  const extra = raw(
    `${options.total ? ', s."total_count"' : ''}${options.productSummary ? PRODUCT_SUMMARY_COLUMNS : ''}${options.change ? CHANGE_COLUMNS : ''}`,
  );
  return sql`
select ${raw(RECORD_COLUMNS)}${extra},
       u."base_currency",
       ${raw(BASE_VALUE)} as "base_value",
       f."name" as "folder_name", f."color" as "folder_color", pm."name" as "payment_mode_name", a."alert_name",
       pc."name" as "category_name", pc."user_id" as "category_user_id", pc."created_at" as "category_created_at", p."brandname" as "product_brandname", f."is_default" as "folder_is_default",
       p."product_name" as "product_product_name", p."category_id" as "product_category_id", p."product_type" as "product_product_type",
       p."description" as "product_description", coalesce(s."logo_hash", p."logo_hash") as "logo_hash",
       null as "next_payment_date", null as "payment_date_upd", null as "refund_date"
  from (${source}) s
  ${raw(RATE_JOINS)}
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
 * The where part of the list's statement and the order (applied to the page and to the joined rows). Lists of
 * values are one array parameter each, so the statement texts (prepared by name) stay few.
 */
export function listQuerySql(userId: number, query: ListQuery): { where: Sql; order: Sql } {
  const conditions: Sql[] = [sql`s."user_id" = ${userId}`, sql`s."deleted_at" is null`];
  const q = query.q?.trim().toLowerCase();
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    // As the original: the texts, the price and currency, the payment method and category names, and the
    // labels of type, billing cycle and recurring ("trial", "monthly", "once").
    const matches = [
      sql`${raw(SEARCH_EXPRESSION)} like ${pattern}`,
      sql`s."price"::text like ${pattern}`,
      sql`lower(s."price_type") like ${pattern}`,
      sql`s."payment_mode_id" in (select pm."id" from "payment_modes" pm where pm."user_id" = s."user_id" and lower(pm."name") like ${pattern})`,
      sql`s."category_id" in (select pc."id" from "product_categories" pc where lower(pc."name") like ${pattern})`,
    ];
    for (const [column, labels] of [
      ['type', TYPE_LABELS],
      ['billing_cycle', CYCLE_LABELS],
      ['recurring', RECURRING_LABELS],
    ] as const) {
      const codes = Object.entries(labels)
        .filter(([, text]) => text.toLowerCase().includes(q))
        .map(([code]) => Number(code));
      if (codes.length > 0) matches.push(sql`s.${raw(`"${column}"`)} = any(${intArray(codes)}::int[])`);
    }
    conditions.push(sql`(${join(matches, ' or ')})`);
  }
  const { folderIds, tagIds, paymentDate } = query.filters;
  if (folderIds?.length) {
    const ids = folderIds.filter((id) => id !== 0);
    const parts: Sql[] = [];
    if (ids.length) parts.push(sql`s."folder_id" = any(${intArray(ids)}::int[])`);
    if (folderIds.includes(0)) parts.push(sql`s."folder_id" is null`);
    conditions.push(sql`(${join(parts, ' or ')})`);
  }
  for (const [key, column] of FILTER_COLUMNS) {
    const values = query.filters[key];
    if (values?.length) conditions.push(sql`${raw(column)} = any(${intArray(values)}::int[])`);
  }
  if (tagIds?.length) {
    conditions.push(
      sql`exists (select 1 from "subscription_tags" st where st."subscription_id" = s."id" and st."tag_id" = any(${intArray(tagIds)}::int[]))`,
    );
  }
  if (paymentDate) conditions.push(sql`s."payment_date" = ${paymentDate}::date`);
  const keys = query.sort.map((key) => `${SORT_COLUMNS[key.field]} ${key.direction} nulls last`);
  const order = raw(`order by ${[...keys, `s."id" ${query.sort[0]?.direction ?? 'asc'}`].join(', ')}`);
  return { where: sql`where ${join(conditions, ' and ')}`, order };
}

/** The values of a link plan's ask, each as SQL: a parameter, or a field of a JSON ask in scope. */
type AskSql = Record<
  | 'currency'
  | 'productId'
  | 'productName'
  | 'folderId'
  | 'categoryId'
  | 'alertId'
  | 'paymentModeId'
  | 'tagIds'
  | 'tagNames',
  Sql
>;

/**
 * Everything a create (or an update that names links) needs to know before it writes, in one read: the owner's
 * zone, whether its currency is known, the product it names (by id, global or the owner's; or the owner's
 * private product of that name), whether each linked row exists for the owner, the tags it names (by id or
 * name) and its alert's definition. A link left out is asked for as null and reads as not found.
 */
function linkPlanSql(ask: AskSql, userId: Sql): Sql {
  const owner = sql`u."id"`;
  return sql`
select u."timezone",
       exists (select 1 from "exchange_rates" r where r."currency" = ${ask.currency}) as "currency_known",
       (select to_jsonb(p) from (${raw(PRODUCT_AS_ENTITY)}
         where ("id" = ${ask.productId} and ${globalOrOwnSql('"owner_id"', owner)})
            or ("owner_id" = u."id" and "product_name" = ${ask.productName}) limit 1) p) as "product",
       exists (select 1 from "folders" f where f."id" = ${ask.folderId} and f."user_id" = u."id") as "folder_found",
       exists (select 1 from "product_categories" pc
                where pc."id" = ${ask.categoryId} and ${globalOrOwnSql('pc."user_id"', owner)}) as "category_found",
       exists (select 1 from "alerts" a where a."id" = ${ask.alertId} and ${globalOrOwnSql('a."user_id"', owner)}) as "alert_found",
       exists (select 1 from "payment_modes" pm
                where pm."id" = ${ask.paymentModeId} and pm."user_id" = u."id") as "payment_mode_found",
       (select coalesce(jsonb_agg(jsonb_build_object('id', t."id", 'name', t."name") order by t."name"), '[]') from "tags" t
         where t."user_id" = u."id"
           and (t."id" = any(${ask.tagIds}) or t."name" in (select jsonb_array_elements_text(${ask.tagNames})))) as "tags",
       (select coalesce(jsonb_agg(d), '[]') from (${raw(DEFINITION_SELECT)} where "id" = ${ask.alertId}) d) as "definitions"
  from "users" u where u."id" = ${userId}`;
}

/**
 * An update's plan (linkPlanSql's for one ask, its values as parameters), and whether the record updated is
 * the user's live record ("record_found").
 */
export function updateLinkPlanSql(userId: number, recordId: number, ask: LinkPlanAsk): Sql {
  const plan = linkPlanSql(
    {
      currency: sql`${ask.currency}::text`,
      productId: sql`${ask.productId}::int`,
      productName: sql`${ask.productName}::text`,
      folderId: sql`${ask.folderId}::int`,
      categoryId: sql`${ask.categoryId}::int`,
      alertId: sql`${ask.alertId}::int`,
      paymentModeId: sql`${ask.paymentModeId}::int`,
      tagIds: sql`${intArray(ask.tagIds)}::int[]`,
      // As JSON: a JS array would be written differently on a transaction and on the pool.
      tagNames: sql`${JSON.stringify(ask.tagNames)}::jsonb`,
    },
    sql`${userId}`,
  );
  return sql`select p.*, exists (select 1 from "subscriptions" s
                                  where s."id" = ${recordId}::int and s."user_id" = ${userId} and s."deleted_at" is null) as "record_found"
               from (${plan}) p`;
}

/** An ask's value read from the JSON ask `e."ask"` in scope, cast as its parameter would be. */
const askField = (field: string, cast: string) => raw(`(e."ask"->>'${field}')::${cast}`);

/**
 * A create's plan and preview in one read. `plans`: the plan of each ask of a JSON array (by its position
 * `n` from 1). Then each new record of a JSON array of [its ask's index from 0, its columns], in order: its
 * plan as the JSON column "plan", the columns it would store as "stored" (its product's copies and category,
 * the owner's zone, its own columns over those, and an id drawn here unless they hold one) and, as the record
 * read will answer it once stored, the record itself. While the product of any ask is not found (not made
 * yet, or missing) no record has either, so a batch draws its ids in one read, in its order.
 */
export function plannedPreviewsSql(
  userId: number,
  asks: readonly LinkPlanAsk[],
  records: ReadonlyArray<[number, Record<string, unknown>]>,
  defaultImage: string,
): Sql {
  const plan = linkPlanSql(
    {
      currency: askField('currency', 'text'),
      productId: askField('productId', 'int'),
      productName: askField('productName', 'text'),
      folderId: askField('folderId', 'int'),
      categoryId: askField('categoryId', 'int'),
      alertId: askField('alertId', 'int'),
      paymentModeId: askField('paymentModeId', 'int'),
      tagIds: raw(`array(select jsonb_array_elements_text(e."ask"->'tagIds')::int)`),
      tagNames: raw(`(e."ask"->'tagNames')`),
    },
    sql`${userId}`,
  );
  const copies = productCopiesSql(sql`pl."product"`, sql`${defaultImage}::text`);
  const preview = recordSelectFrom(
    sql`select * from jsonb_populate_record(null::"subscriptions", st."stored") where st."stored" is not null`,
  );
  return sql`
with "plans" as (
  select e."n", plan.* from jsonb_array_elements(${JSON.stringify(asks)}::jsonb) with ordinality e("ask", "n")
   cross join lateral (${plan}) plan),
"stored" as (
  select r."n", to_jsonb(pl) - 'n' as "plan",
         case when not exists (select from "plans" where "product" is null)
              then ${copies} || jsonb_build_object('timezone', pl."timezone") || (r."value"->1)
                   || jsonb_build_object('id', coalesce((r."value"->1->>'id')::int, nextval('subscriptions_id_seq'))) end as "stored"
    from jsonb_array_elements(${JSON.stringify(records)}::jsonb) with ordinality r("value", "n")
    join "plans" pl on pl."n" = (r."value"->>0)::int + 1
   order by r."n")
select st."plan", st."stored", pv.*
  from "stored" st left join lateral (${preview}) pv on true
 order by st."n"`;
}

/**
 * New records inserted with their tags and the alerts kept beside their alert_id (`tagLinks`: [record,
 * tag]; `alertLinks`: [record, alert, position]), as a part of the statement that writes their events,
 * deliveries and reminders. The columns are the keys of the records' objects (from the entity's metadata,
 * never from input); a key a record lacks is null.
 */
export function insertRecordsSql(
  rows: ReadonlyArray<Record<string, unknown>>,
  tagLinks: ReadonlyArray<readonly number[]>,
  alertLinks: ReadonlyArray<readonly number[]>,
): Sql {
  const list = raw([...new Set(rows.flatMap((row) => Object.keys(row)))].map((column) => `"${column}"`).join(', '));
  return sql`"created" as (
         insert into "subscriptions" (${list})
         select ${list} from jsonb_populate_recordset(null::"subscriptions", ${JSON.stringify(rows)}::jsonb)),
       "created_tags" as (
         insert into "subscription_tags" ("subscription_id", "tag_id")
         select (link->>0)::int, (link->>1)::int from jsonb_array_elements(${JSON.stringify(tagLinks)}::jsonb) link),
       "created_alerts" as (
         insert into "subscription_alerts" ("subscription_id", "alert_id", "position")
         select (link->>0)::int, (link->>1)::int, (link->>2)::int
           from jsonb_array_elements(${JSON.stringify(alertLinks)}::jsonb) link)`;
}
