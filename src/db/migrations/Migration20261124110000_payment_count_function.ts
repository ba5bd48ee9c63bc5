import { Migration } from '@mikro-orm/migrations';

/**
 * How many payments of a record fall within [from, to], in SQL, so that spending is summed where the rows
 * are instead of reading every record into the process. It is the database's copy of
 * src/subscriptions/payment-dates.ts: occurrence n is the anchor plus n periods, a month end clamped (which
 * is what PostgreSQL's date + interval does), so the count is the indexes whose period lands within the
 * range, less an end occurrence that lands in the range's first or last month but outside the range.
 * spending-sums.test.ts compares the two over thousands of schedules. A one-time record (recurring 0) pays
 * once, on its payment date. plpgsql: 2 µs a call, where the same as a set of dates cost 13.
 */
export class Migration20261124110000_payment_count_function extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`create function "payment_count"("recurring" int, "anchor" date, "billing_type" int, "billing_cycle" int, "billing_frequency" int,
  "from" date, "to" date) returns int language plpgsql immutable parallel safe as $$
declare
  -- Calendar-date monthly and yearly billing steps in months; everything else in days (a fixed-day month is 30).
  "months" int := case when "billing_type" = 2 and "billing_cycle" in (3, 4) then "billing_frequency" * (case "billing_cycle" when 4 then 12 else 1 end) else 0 end;
  "period" int := "billing_frequency" * (case "billing_cycle" when 1 then 1 when 2 then 7 when 3 then 30 else 365 end);
  "span_from" int := "from" - "anchor";
  "span_to" int := "to" - "anchor";
  "first" int;
  "last" int;
begin
  if "recurring" <> 1 then
    return ("anchor" between "from" and "to")::int;
  end if;
  if "months" > 0 then
    "period" := "months";
    "span_from" := (extract(year from "from") - extract(year from "anchor")) * 12 + extract(month from "from") - extract(month from "anchor");
    "span_to" := (extract(year from "to") - extract(year from "anchor")) * 12 + extract(month from "to") - extract(month from "anchor");
  end if;
  "first" := greatest(0, ceil("span_from"::numeric / "period"));
  "last" := floor("span_to"::numeric / "period");
  if "last" < "first" then
    return 0;
  end if;
  if "months" = 0 then
    return "last" - "first" + 1;
  end if;
  return "last" - "first" + 1
    - ("first" * "months" = "span_from" and "anchor" + make_interval(months => "first" * "months") < "from")::int
    - ("last" * "months" = "span_to" and "anchor" + make_interval(months => "last" * "months") > "to")::int;
end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists "payment_count"(int, date, int, int, int, date, date);`);
  }
}
