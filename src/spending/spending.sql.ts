import sql, { raw, type Sql } from 'sql-template-tag';

import { baseAmountSql } from '../subscriptions/subscription.sql';

/**
 * What spending groups by: the group's key and label over the record `s`, its folder `f` and category `pc`,
 * with `currency` the column of the amounts' currency.
 */
function spendingGroup(grouping: SpendingGroupingKey, currency = 's."price_type"'): readonly [key: Sql, label: Sql] {
  switch (grouping) {
    case 'CATEGORY':
      return [raw(`coalesce(s."category_id", 0)::text`), raw(`coalesce(pc."name", 'Uncategorised')`)];
    case 'FOLDER':
      return [raw(`coalesce(s."folder_id", 0)::text`), raw(`coalesce(f."name", 'No folder')`)];
    case 'CURRENCY':
      return [raw(currency), raw(currency)];
    case 'MONTH':
      // By month, each payment is a group's: the records are summed only for the totals.
      return [raw(`''`), raw(`''`)];
  }
}

export type SpendingGroupingKey = 'CATEGORY' | 'FOLDER' | 'CURRENCY' | 'MONTH';

/** A step's payments within the range, up to the record's expiry_date and within the step ([step_from, step_to], open where null). */
const stepPayments = (from: string, to: string) =>
  raw(`"payment_count"(r."recurring", r."payment_date", r."billing_type", r."billing_cycle", r."billing_frequency",
                   greatest(${from}, st."step_from"), least(${to}, r."expiry_date", st."step_to"))`);

/**
 * Whose records spending sums, and which part of each: a user's own records in full (`own`); the records
 * shared in a household in full (`household`); one member's share of them (`member`); or what a user bears
 * (`myShare`): their records that are not shared in full, and their share of the records shared in every
 * household they belong to.
 */
export type SpendingScope =
  | { kind: 'own'; userId: number }
  | { kind: 'myShare'; userId: number }
  | { kind: 'household'; householdId: number }
  | { kind: 'member'; householdId: number; memberId: number };

/**
 * Each shared record's members' parts as weight bounds: a member bears the part of a payment between the
 * weights before theirs (`lo`) and up to theirs (`hi`) of the whole (`den`), each bound cut to the cent, so the
 * parts add up to the payment exactly (splitCents does the same in JavaScript).
 */
const SPLIT_PARTS = sql`"split_parts" as (
  select sp."subscription_id" as "id", sp."member_id", sh."household_id",
         sum(sp."weight") over w - sp."weight" as "lo", sum(sp."weight") over w as "hi", sum(sp."weight") over (partition by sp."subscription_id") as "den"
    from "subscription_splits" sp join "subscription_shares" sh on sh."subscription_id" = sp."subscription_id"
  window w as (partition by sp."subscription_id" order by sp."position"))`;

/** The scope's records `s` (or, for the ledger, their entries `e`) with the scope's part of each (`x`: lo, hi, den). */
function scopeSource(scope: SpendingScope, table: 'subscriptions' | 'payment_entries'): Sql {
  const [alias, key] = table === 'subscriptions' ? [raw('s'), raw('s."id"')] : [raw('e'), raw('e."subscription_id"')];
  const from = raw(`"${table}"`);
  if (scope.kind === 'own') {
    // A user's records straight from their table (the hot path): no split to join.
    return sql`(select * from ${from} where "user_id" = ${scope.userId}) ${alias} cross join (values (0::numeric, 1::numeric, 1::numeric)) x("lo", "hi", "den")`;
  }
  return sql`(${scopeRecords(scope)}) x("id", "lo", "hi", "den") join ${from} ${alias} on ${key} = x."id"`;
}

/** The ids of a shared scope's records, with the scope's part of each (lo, hi, den). */
function scopeRecords(scope: Exclude<SpendingScope, { kind: 'own' }>): Sql {
  const whole = sql`0::numeric, 1::numeric, 1::numeric`;
  switch (scope.kind) {
    case 'household':
      return sql`select "subscription_id", ${whole} from "subscription_shares" where "household_id" = ${scope.householdId}`;
    case 'member':
      return sql`select "id", "lo", "hi", "den" from "split_parts" where "household_id" = ${scope.householdId} and "member_id" = ${scope.memberId}`;
    case 'myShare':
      return sql`select s."id", ${whole} from "subscriptions" s where s."user_id" = ${scope.userId} and not exists (select 1 from "subscription_shares" sh where sh."subscription_id" = s."id")
              union all
              select p."id", p."lo", p."hi", p."den" from "split_parts" p join "household_members" m on m."id" = p."member_id" where m."user_id" = ${scope.userId}`;
  }
}

/** The scope's part (the bounds of `alias`) of an amount in exact integer cents. */
const partOf = (cents: string, alias = 'x') =>
  raw(`(div(${cents} * ${alias}."hi", ${alias}."den") - div(${cents} * ${alias}."lo", ${alias}."den"))::bigint`);

/** The viewer `u` (whose base currency sums are in) and the rates of the amounts' currency `rp` and the base `rb`. */
const viewerRates = (viewerId: number, currency: string) => sql`join "users" u on u."id" = ${viewerId}
    left join "exchange_rates" rp on rp."currency" = ${raw(currency)}
    left join "exchange_rates" rb on rb."currency" = u."base_currency"`;

/**
 * Spending's sums, made where the rows are: the scope's live Active records summed per group and billing kind,
 * in exact integer cents of their base value (today's price: the average monthly cost), with what their
 * payments within the range add up to at the price each payment's date had (`steps`: the price history's
 * steps, the first reaching back, or the one price throughout); by month, also each month's payments; each
 * payment cut to the scope's part of it. A few dozen rows, whatever the number of records.
 */
export function spendingSumsSql(
  grouping: SpendingGroupingKey,
  scope: SpendingScope,
  viewerId: number,
  from: string,
  to: string,
): Sql {
  const [key, label] = spendingGroup(grouping);
  const base = (amount: string) =>
    `trunc(${baseAmountSql(amount, 's."price_type"', 'rp."per_usd"', 'rb."per_usd"')} * 100)`;
  const sums = sql`
with "range" as (select ${from}::date as "from", ${to}::date as "to"),
${SPLIT_PARTS},
"records" as (
  select s."id", s."recurring", s."payment_date", s."billing_type", s."billing_cycle", s."billing_frequency", s."expiry_date",
         ${key} as "key", ${label} as "label", ${partOf(base('s."price"'))} as "cents", x."lo", x."hi", x."den",
         s."price_type", u."base_currency", rp."per_usd", rb."per_usd" as "base_per_usd"
    from ${scopeSource(scope, 'subscriptions')}
    ${viewerRates(viewerId, 's."price_type"')}
    left join "folders" f on f."id" = s."folder_id"
    left join "product_categories" pc on pc."id" = s."category_id"
   where s."deleted_at" is null and s."status" = 1),
"steps" as (
  select r."id", case when row_number() over w = 1 then null else h."effective_from" end as "step_from", lead(h."effective_from") over w - 1 as "step_to",
         ${partOf(`trunc(${baseAmountSql('h."price"', 'r."price_type"', 'r."per_usd"', 'r."base_per_usd"', 'r."base_currency"')} * 100)`, 'r')} as "cents"
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
  return sql`${sums}
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
 * at today's rates: the ledger's paid entries of the scope's live records, whatever their status now, each cut
 * to the scope's part; by month, per month paid.
 */
export function paidSumsSql(
  grouping: SpendingGroupingKey,
  scope: SpendingScope,
  viewerId: number,
  from: string,
  to: string,
): Sql {
  const [key, label] =
    grouping === 'MONTH'
      ? [raw(`to_char(e."paid_on", 'YYYY-MM')`), raw(`to_char(e."paid_on", 'YYYY-MM')`)]
      : spendingGroup(grouping, 'e."currency"');
  return sql`
with ${SPLIT_PARTS}
select ${key} as "key", ${label} as "label", count(*)::int as "count",
       sum(${partOf(`trunc(${baseAmountSql('e."paid_amount"', 'e."currency"', 'rp."per_usd"', 'rb."per_usd"')} * 100)`)})::text as "cents"
  from ${scopeSource(scope, 'payment_entries')}
  join "subscriptions" s on s."id" = e."subscription_id" and s."deleted_at" is null
  ${viewerRates(viewerId, 'e."currency"')}
  left join "folders" f on f."id" = s."folder_id"
  left join "product_categories" pc on pc."id" = s."category_id"
 where e."paid_on" between ${from}::date and ${to}::date and e."status" = 'paid'
 group by 1, 2`;
}
