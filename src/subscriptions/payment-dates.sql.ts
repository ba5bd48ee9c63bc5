import sql, { raw, type Sql } from 'sql-template-tag';

import { BillingType, Cycle, Status } from './codes';

/**
 * The dates a read derives from a record and "today" (payment-dates.ts and toRecord), written in SQL so that
 * PostgreSQL can make a whole answer: the same rules, occurrence n always the anchor plus n periods (PostgreSQL
 * clamps a month's day as monthsAfter does: Jan 31 + 1 month is Feb 28). test/unit/payment-dates-sql.test.ts
 * holds the two to the same answers over random schedules and days.
 */

const ANCHOR = 's."payment_date"';

/** Months per period for calendar-date monthly and yearly billing, else 0. */
const MONTHS = `(case when s."billing_type" = ${BillingType.CalendarDate} and s."billing_cycle" in (${Cycle.Monthly}, ${Cycle.Yearly})
  then s."billing_frequency" * (case s."billing_cycle" when ${Cycle.Yearly} then 12 else 1 end) else 0 end)`;

/** Days per period otherwise (null for a cycle without a length, which no valid record has). */
const DAYS = `nullif(s."billing_frequency" * (case s."billing_cycle" when ${Cycle.Daily} then 1 when ${Cycle.Weekly} then 7
  when ${Cycle.Monthly} then 30 when ${Cycle.Yearly} then 365 end), 0)`;

/** Whole months from the anchor's month to `date`'s. */
const monthsFromAnchor = (date: string) =>
  `((extract(year from ${date})::int - extract(year from ${ANCHOR})::int) * 12 + extract(month from ${date})::int - extract(month from ${ANCHOR})::int)`;

/** Occurrence `n` of a month schedule. */
const monthOccurrence = (n: string) => `(${ANCHOR} + make_interval(months => (${n}) * p."months"))::date`;

/** The first occurrence on or after `target`: the anchor's month plus whole periods lands in target's month or the next period's. */
function nextOnOrAfter(target: string): string {
  const periods = `(${monthsFromAnchor(target)} / p."months")`;
  return `(case when ${target} <= ${ANCHOR} then ${ANCHOR}
    when p."months" > 0 then (case when ${monthOccurrence(periods)} >= ${target} then ${monthOccurrence(periods)}
      else ${monthOccurrence(`${periods} + 1`)} end)
    else ${ANCHOR} + ((${target} - ${ANCHOR} + p."days" - 1) / p."days") * p."days" end)`;
}

/** The last occurrence on or before `target`, null while the anchor is still ahead. */
function lastOnOrBefore(target: string): string {
  const periods = `(${monthsFromAnchor(target)} / p."months")`;
  return `(case when ${ANCHOR} > ${target} then null
    when p."months" > 0 then (case when ${monthOccurrence(periods)} <= ${target} then ${monthOccurrence(periods)}
      else ${monthOccurrence(`${periods} - 1`)} end)
    else ${ANCHOR} + ((${target} - ${ANCHOR}) / p."days") * p."days" end)`;
}

/**
 * Joins, after a read of records aliased `s`, `d."next_payment_date"`, `d."payment_date_upd"`,
 * `d."refund_date"` and `d."today"` (the record's zone's date at `now`, the read's instant). Each step is a
 * lateral select without a FROM, which the planner folds into the row: nothing is evaluated twice.
 */
export function derivedDatesSql(now: Date): Sql {
  return sql`cross join lateral (select (${now.toISOString()}::timestamptz at time zone s."timezone")::date as "today",
      ${raw(MONTHS)} as "months", ${raw(DAYS)} as "days") p
    cross join lateral (select ${raw(nextOnOrAfter('p."today"'))} as "next",
      ${raw(lastOnOrBefore('least(p."today", s."expiry_date")'))} as "last" offset 0) o
    cross join lateral (select p."today",
      case when s."recurring" = 1 and s."status" = ${raw(String(Status.Active))} and (o."next" > s."expiry_date") is not true
        then o."next" end as "next_payment_date",
      case when s."recurring" = 1 then coalesce(o."last", ${raw(ANCHOR)}) else ${raw(ANCHOR)} end as "payment_date_upd",
      ${raw(ANCHOR)} + s."refund_days" as "refund_date" offset 0) d`;
}
