import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { intArray, type StatementPart } from '../platform/db/statements';

/** A record's price from a date on. */
export interface PriceStep {
  subscription_id: number;
  effective_from: string;
  price: string;
}

/** The one door to price_changes: a record's price history and the parts of the writes that change it. */
export class PriceHistoryRepository {
  constructor(private readonly db: DataSource) {}

  /** The steps of these records, each record's in date order. */
  of(ids: readonly number[]): Promise<PriceStep[]> {
    return this.db.rows<PriceStep>(
      sql`select "subscription_id", "effective_from", "price"::text as "price" from "price_changes"
           where "subscription_id" = any(${intArray(ids)}::int[]) order by "subscription_id", "effective_from"`,
    );
  }

  /** The steps of the user's live records. */
  ofUser(userId: number): Promise<PriceStep[]> {
    return this.db.rows<PriceStep>(
      sql`select h."subscription_id", h."effective_from", h."price"::text as "price" from "price_changes" h
            join "subscriptions" s on s."id" = h."subscription_id" and s."user_id" = ${userId} and s."deleted_at" is null
           order by h."subscription_id", h."effective_from"`,
    );
  }

  /** An imported record's steps, written when the record is the user's (in the import's transaction). */
  async restore(userId: number, id: number, steps: ReadonlyArray<{ effective_from: string; price: string }>) {
    await this.db.run(
      sql`insert into "price_changes" ("subscription_id", "effective_from", "price")
          select s."id", v."effective_from", v."price"
            from jsonb_to_recordset(${JSON.stringify(steps)}::jsonb) as v("effective_from" date, "price" numeric)
            join "subscriptions" s on s."id" = ${id} and s."user_id" = ${userId}
          on conflict ("subscription_id", "effective_from") do update set "price" = excluded."price"`,
    );
  }

  /** Steps written (or, on a date that has one, their price replaced), as a part of the statement of the record's change. */
  stepsPart(steps: readonly PriceStep[]): StatementPart {
    return {
      sql: sql`"price_steps" as (
         insert into "price_changes" ("subscription_id", "effective_from", "price")
         select "subscription_id", "effective_from", "price"
           from jsonb_to_recordset(${JSON.stringify(steps)}::jsonb) as v("subscription_id" int, "effective_from" date, "price" numeric)
         on conflict ("subscription_id", "effective_from") do update set "price" = excluded."price")`,
    };
  }

  /**
   * A correction of the price in effect on `today` (an edit of the record's price, not a change from a date):
   * the step in effect then, or the first when all are later. Nothing for a record without history.
   */
  correctionPart(id: number, today: string, price: string): StatementPart {
    return {
      sql: sql`"price_corrected" as (
         update "price_changes" set "price" = ${price}::numeric
          where "id" = coalesce(
                  (select "id" from "price_changes" where "subscription_id" = ${id} and "effective_from" <= ${today}::date
                    order by "effective_from" desc limit 1),
                  (select "id" from "price_changes" where "subscription_id" = ${id} order by "effective_from" limit 1)))`,
    };
  }

  /** Live records whose price is not the one their history puts in effect today in their zone at `now` (a step's day came). */
  duePrices(now: Date, limit: number): Promise<Array<{ id: number; user_id: number; price: string }>> {
    return this.db.rows(
      sql`select s."id", s."user_id", h."price"::text as "price" from "subscriptions" s
            cross join lateral (
              select pc."price" from "price_changes" pc
               where pc."subscription_id" = s."id"
                 and pc."effective_from" <= (cast(${now.toISOString()} as timestamptz) at time zone s."timezone")::date
               order by pc."effective_from" desc limit 1) h
           where s."id" in (select "subscription_id" from "price_changes") and s."deleted_at" is null and s."price" <> h."price"
           order by s."user_id", s."id" limit ${limit}`,
    );
  }
}
