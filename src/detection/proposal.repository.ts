import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { intArray } from '../platform/db/statements';
import type { CsvMapping, DetectedSeries } from './statement';

export type ProposalStatus = 'open' | 'accepted' | 'dismissed';

/** A proposal as stored: a detected series, what it was matched to, and the user's decision. */
export interface ProposalRow {
  id: number;
  series_key: string;
  payee: string;
  product_id: number | null;
  product_name: string | null;
  currency: string;
  billing_cycle: number;
  billing_frequency: number;
  price: string;
  price_steps: Array<{ effectiveFrom: string; price: string }>;
  payments: Array<{ date: string; amount: string }>;
  next_date: string;
  ongoing: boolean;
  confidence: string;
  reasons: string[];
  tracked_subscription_id: number | null;
  status: ProposalStatus;
  subscription_id: number | null;
}

/** A series to propose with what it was matched to. */
export interface MatchedSeries {
  series: DetectedSeries;
  productId: number | null;
  trackedSubscriptionId: number | null;
}

const PROPOSAL_SELECT = sql`select sp."id", sp."series_key", sp."payee", sp."product_id", p."product_name", sp."currency",
       sp."billing_cycle", sp."billing_frequency", sp."price"::text as "price", sp."price_steps", sp."payments",
       sp."next_date"::text as "next_date", sp."ongoing", sp."confidence"::text as "confidence", sp."reasons",
       sp."tracked_subscription_id", sp."status", sp."subscription_id"
  from "statement_proposals" sp left join "products" p on p."id" = sp."product_id"`;

/** The one door to statement_proposals and statement_layouts. */
export class ProposalRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Stores the series of an analysis: a new series, or one still open, is proposed as now found; a series the
   * user accepted or dismissed keeps that decision. Answers the rows of these series, in the given order.
   */
  async propose(userId: number, matched: readonly MatchedSeries[]): Promise<ProposalRow[]> {
    if (matched.length === 0) return [];
    const rows = matched.map(({ series, productId, trackedSubscriptionId }) => ({
      series_key: series.key,
      payee: series.payee,
      product_id: productId,
      currency: series.currency,
      billing_cycle: series.period.cycle,
      billing_frequency: series.period.frequency,
      price: series.price,
      price_steps: series.priceSteps,
      payments: series.payments,
      next_date: series.nextDate,
      ongoing: series.ongoing,
      confidence: series.confidence.toFixed(3),
      reasons: series.reasons,
      tracked_subscription_id: trackedSubscriptionId,
    }));
    await this.db.run(
      sql`insert into "statement_proposals" as sp ("user_id", "series_key", "payee", "product_id", "currency", "billing_cycle",
            "billing_frequency", "price", "price_steps", "payments", "next_date", "ongoing", "confidence", "reasons",
            "tracked_subscription_id")
          select ${userId}, v."series_key", v."payee", v."product_id", v."currency", v."billing_cycle", v."billing_frequency",
                 v."price", v."price_steps", v."payments", v."next_date", v."ongoing", v."confidence", v."reasons",
                 v."tracked_subscription_id"
            from jsonb_populate_recordset(null::"statement_proposals", ${JSON.stringify(rows)}::jsonb) v
          on conflict ("user_id", "series_key") do update
            set "payee" = excluded."payee", "product_id" = excluded."product_id", "price" = excluded."price",
                "price_steps" = excluded."price_steps", "payments" = excluded."payments", "next_date" = excluded."next_date",
                "ongoing" = excluded."ongoing", "confidence" = excluded."confidence", "reasons" = excluded."reasons",
                "tracked_subscription_id" = excluded."tracked_subscription_id", "created_at" = excluded."created_at"
            where sp."status" = 'open'`,
    );
    const keys = JSON.stringify(matched.map(({ series }) => series.key));
    return this.db.rows<ProposalRow>(
      sql`${PROPOSAL_SELECT}
          join jsonb_array_elements_text(${keys}::jsonb) with ordinality k("key", "n") on k."key" = sp."series_key"
         where sp."user_id" = ${userId} order by k."n"`,
    );
  }

  /** The user's proposals in a status, most confident first. */
  ofUser(userId: number, status: ProposalStatus): Promise<ProposalRow[]> {
    return this.db.rows<ProposalRow>(
      sql`${PROPOSAL_SELECT} where sp."user_id" = ${userId} and sp."status" = ${status}
          order by sp."confidence" desc, sp."payee", sp."id"`,
    );
  }

  /** The user's open proposals of these ids, locked for the decision; another user's id is not among them. */
  openForDecision(userId: number, ids: readonly number[]): Promise<ProposalRow[]> {
    return this.db.rows<ProposalRow>(
      sql`${PROPOSAL_SELECT}
         where sp."user_id" = ${userId} and sp."id" = any(${intArray(ids)}::int[]) and sp."status" = 'open'
         order by sp."id" for update of sp`,
    );
  }

  /** Records the decision on a proposal (and the record an acceptance made or matched). */
  async decide(id: number, status: Exclude<ProposalStatus, 'open'>, subscriptionId: number | null): Promise<void> {
    await this.db.run(
      sql`update "statement_proposals"
             set "status" = ${status}, "subscription_id" = ${subscriptionId}, "decided_at" = now() at time zone 'utc'
           where "id" = ${id}`,
    );
  }

  /** The column mappings the user gave, by CSV layout. */
  async mappings(userId: number): Promise<Map<string, CsvMapping>> {
    const rows = await this.db.rows<{ layout_key: string; mapping: CsvMapping }>(
      sql`select "layout_key", "mapping" from "statement_layouts" where "user_id" = ${userId}`,
    );
    return new Map(rows.map((row) => [row.layout_key, row.mapping]));
  }

  /** Remembers the mapping of a CSV layout for the user's next file of it. */
  async rememberMapping(userId: number, layoutKey: string, mapping: CsvMapping): Promise<void> {
    await this.db.run(
      sql`insert into "statement_layouts" ("user_id", "layout_key", "mapping")
          values (${userId}, ${layoutKey}, ${JSON.stringify(mapping)}::jsonb)
          on conflict ("user_id", "layout_key") do update
            set "mapping" = excluded."mapping", "updated_at" = now() at time zone 'utc'`,
    );
  }
}
