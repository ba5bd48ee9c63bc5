import { BASE_AMOUNT, baseAmountSql, RATE_JOINS } from '../subscriptions/subscription.sql';

/**
 * What spending groups by: the group's key and label over the record `s`, its folder `f` and category `pc`,
 * with `currency` the column of the amounts' currency.
 */
function spendingGroup(grouping: SpendingGroupingKey, currency = 's."price_type"'): readonly [key: string, label: string] {
  switch (grouping) {
    case 'CATEGORY':
      return [`coalesce(s."category_id", 0)::text`, `coalesce(pc."name", 'Uncategorised')`];
    case 'FOLDER':
      return [`coalesce(s."folder_id", 0)::text`, `coalesce(f."name", 'No folder')`];
    case 'CURRENCY':
      return [currency, currency];
    case 'MONTH':
      // By month, each payment is a group's: the records are summed only for the totals.
      return [`''`, `''`];
  }
}

export type SpendingGroupingKey = 'CATEGORY' | 'FOLDER' | 'CURRENCY' | 'MONTH';

/** A step's payments within the range, up to the record's expiry_date and within the step ([step_from, step_to], open where null). */
const stepPayments = (from: string, to: string) =>
  `"payment_count"(r."recurring", r."payment_date", r."billing_type", r."billing_cycle", r."billing_frequency",
                   greatest(${from}, st."step_from"), least(${to}, r."expiry_date", st."step_to"))`;

/**
 * Spending's sums, made where the rows are: the user's live Active records summed per group and billing kind,
 * in exact integer cents of their base value (today's price: the average monthly cost), with what their
 * payments within the range add up to at the price each payment's date had (`steps`: the price history's
 * steps, the first reaching back, or the one price throughout); by month, also each month's payments. A few
 * dozen rows, whatever the number of records. Parameters: from, to, user.
 */
export function spendingSumsSql(grouping: SpendingGroupingKey): string {
  const [key, label] = spendingGroup(grouping);
  const sums = `
with "range" as (select ?::date as "from", ?::date as "to"),
"records" as (
  select s."id", s."recurring", s."payment_date", s."billing_type", s."billing_cycle", s."billing_frequency", s."expiry_date",
         ${key} as "key", ${label} as "label",
         trunc(${BASE_AMOUNT} * 100)::bigint as "cents", s."price_type", u."base_currency", rp."per_usd", rb."per_usd" as "base_per_usd"
    from "subscriptions" s
    ${RATE_JOINS}
    left join "folders" f on f."id" = s."folder_id"
    left join "product_categories" pc on pc."id" = s."category_id"
   where s."user_id" = ? and s."deleted_at" is null and s."status" = 1),
"steps" as (
  select r."id", case when row_number() over w = 1 then null else h."effective_from" end as "step_from", lead(h."effective_from") over w - 1 as "step_to",
         trunc(${baseAmountSql('h."price"', 'r."price_type"', 'r."per_usd"', 'r."base_per_usd"', 'r."base_currency"')} * 100)::bigint as "cents"
    from "records" r join "price_changes" h on h."subscription_id" = r."id"
  window w as (partition by r."id" order by h."effective_from")
  union all
  select r."id", null, null, r."cents" from "records" r where not exists (select 1 from "price_changes" h where h."subscription_id" = r."id")),
"periods" as (
  select st."id", sum(st."cents" * ${stepPayments('g."from"', 'g."to"')}) as "period_cents"
    from "steps" st join "records" r on r."id" = st."id" cross join "range" g
   group by st."id")
select 'kind' as "part", r."key", r."label", r."recurring", r."billing_type", r."billing_cycle", r."billing_frequency", count(*)::int as "count",
       sum(r."cents")::text as "cents", sum(p."period_cents")::text as "period_cents"
  from "records" r join "periods" p on p."id" = r."id"
 group by r."key", r."label", r."recurring", r."billing_type", r."billing_cycle", r."billing_frequency"`;
  if (grouping !== 'MONTH') return sums;
  // Each month of the range counts the payments within both.
  return `${sums}
union all
select 'month', m."key", m."key", null, null, null, null, sum(m."payments")::int, sum(m."cents" * m."payments")::text, sum(m."cents" * m."payments")::text
  from (select to_char(month, 'YYYY-MM') as "key", st."cents",
               ${stepPayments(`greatest(month::date, g."from")`, `least((month + interval '1 month - 1 day')::date, g."to")`)} as "payments"
          from "steps" st join "records" r on r."id" = st."id" cross join "range" g
         cross join generate_series(date_trunc('month', g."from"), g."to", interval '1 month') month) m
 where m."payments" > 0
 group by m."key"`;
}

/**
 * What was paid within [from, to] (by the day paid), per group, in exact integer cents of the base currency
 * at today's rates: the ledger's paid entries of the user's live records, whatever their status now; by month,
 * per month paid. Parameters: from, to, user.
 */
export function paidSumsSql(grouping: SpendingGroupingKey): string {
  const [key, label] = grouping === 'MONTH' ? [`to_char(e."paid_on", 'YYYY-MM')`, `to_char(e."paid_on", 'YYYY-MM')`] : spendingGroup(grouping, 'e."currency"');
  return `
select ${key} as "key", ${label} as "label", count(*)::int as "count",
       sum(trunc(${baseAmountSql('e."paid_amount"', 'e."currency"', 'rp."per_usd"', 'rb."per_usd"')} * 100))::text as "cents"
  from "payment_entries" e
  join "subscriptions" s on s."id" = e."subscription_id" and s."deleted_at" is null
  join "users" u on u."id" = e."user_id"
  left join "exchange_rates" rp on rp."currency" = e."currency"
  left join "exchange_rates" rb on rb."currency" = u."base_currency"
  left join "folders" f on f."id" = s."folder_id"
  left join "product_categories" pc on pc."id" = s."category_id"
 where e."paid_on" between ?::date and ?::date and e."user_id" = ? and e."status" = 'paid'
 group by 1, 2`;
}
