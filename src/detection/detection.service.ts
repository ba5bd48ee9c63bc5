import Decimal from 'decimal.js';

import type { AuthService } from '../auth/auth.service';
import type { CatalogueService } from '../catalogue/catalogue.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import { BillingType, RecordType, Status } from '../subscriptions/codes';
import type { SubscriptionRecord } from '../subscriptions/subscription.record';
import type { SubscriptionService } from '../subscriptions/subscription.service';
import { detectSeries } from './detect';
import { normalisePayee } from './payee-names';
import type { MatchedSeries, ProposalRepository, ProposalRow } from './proposal.repository';
import type { CsvLayout, CsvMapping, StatementFormat } from './statement';
import { readStatement } from './statement-formats/read-statement';
import { statementTooLarge } from './upload';

/** The largest statement read: as an import's file. */
export const MAX_STATEMENT_BYTES = 10 * 1024 * 1024;
/** The catalogue products a series' payee is compared with, best search matches first. */
const CATALOGUE_CANDIDATES = 5;
/** Proposals decided in one call. */
const MAX_DECISIONS = 200;

/** What an analysis answers: the proposals found, or the CSV layout whose columns must be mapped first. */
export type StatementAnalysis =
  | { needsMapping: false; transactionCount: number; proposals: ProposalRow[] }
  | { needsMapping: true; layout: CsvLayout; sample: string[][] };

/**
 * Finds the recurring payments in a bank statement the user uploads, proposes each as a record (matched to the
 * catalogue and to the records the user already keeps), and turns the accepted ones into records with their
 * payment history. Only the proposals and the decisions on them are kept, never the statement.
 */
export class DetectionService {
  constructor(
    private readonly transactions: Transactions,
    private readonly proposals: ProposalRepository,
    private readonly subscriptions: SubscriptionService,
    private readonly catalogue: CatalogueService,
    private readonly ledger: LedgerService,
    private readonly auth: AuthService,
  ) {}

  async analyze(
    caller: Caller,
    file: Buffer,
    options: { format?: StatementFormat; mapping?: CsvMapping } = {},
  ): Promise<StatementAnalysis> {
    if (file.length > MAX_STATEMENT_BYTES) throw statementTooLarge();
    const [known, user] = await Promise.all([this.proposals.mappings(caller.userId), this.auth.me(caller)]);
    const reading = readStatement(file, {
      format: options.format,
      mapping: options.mapping,
      knownMappings: (key) => known.get(key),
      defaultCurrency: options.mapping?.defaultCurrency ?? user.baseCurrency,
    });
    if (reading.kind === 'needsMapping') return { needsMapping: true, layout: reading.layout, sample: reading.sample };
    if (options.mapping && reading.csv)
      await this.proposals.rememberMapping(caller.userId, reading.csv.layout.key, reading.csv.mapping);
    const found = detectSeries(reading.transactions);
    // Each kept record by its payee key, read once for every series.
    const records = (await this.subscriptions.all(caller)).map(({ record }) => ({
      record,
      key: record.product_name === null ? '' : normalisePayee(record.product_name).key,
    }));
    const matched: MatchedSeries[] = [];
    for (const series of found) {
      const payee = normalisePayee(series.payee).key;
      const tracked = records.find(({ record, key }) => record.price_type === series.currency && samePayee(key, payee));
      // The search ranks close spellings too; a product is taken only when its name is the payee's.
      const candidates = tracked
        ? []
        : await this.catalogue.search(caller, series.payee, { limit: CATALOGUE_CANDIDATES });
      const product = candidates.find((candidate) => samePayee(normalisePayee(candidate.productName).key, payee));
      matched.push({
        series,
        productId: tracked?.record.product_id ?? product?.id ?? null,
        trackedSubscriptionId: tracked?.record.id ?? null,
      });
    }
    const rows = await this.proposals.propose(caller.userId, matched);
    return {
      needsMapping: false,
      transactionCount: reading.transactions.length,
      proposals: rows.filter((row) => row.status === 'open'),
    };
  }

  /** The caller's proposals not yet decided. */
  open(caller: Caller): Promise<ProposalRow[]> {
    return this.proposals.ofUser(caller.userId, 'open');
  }

  /**
   * Accepts proposals, all or none, in one transaction: each new series becomes a record (Active while the
   * payments go on, else Cancelled) with its past payments in the ledger as paid and its price history; a series
   * already tracked takes its new price (a change from the step's date) when the price moved. Answers the records.
   */
  async accept(caller: Caller, ids: readonly number[]): Promise<SubscriptionRecord[]> {
    return this.transactions.transaction(async () => {
      const rows = await this.decided(caller, ids);
      const records: SubscriptionRecord[] = [];
      for (const row of rows) {
        const record = row.tracked_subscription_id
          ? await this.acceptTracked(caller, row, row.tracked_subscription_id)
          : await this.acceptNew(caller, row);
        await this.proposals.decide(row.id, 'accepted', record.id);
        records.push(record);
      }
      return records;
    });
  }

  /** Dismisses proposals: the same series is not proposed again. Answers how many were dismissed. */
  async dismiss(caller: Caller, ids: readonly number[]): Promise<number> {
    return this.transactions.transaction(async () => {
      const rows = await this.decided(caller, ids);
      for (const row of rows) await this.proposals.decide(row.id, 'dismissed', null);
      return rows.length;
    });
  }

  /** The caller's open proposals of these ids, locked; "not found" when any is not (another user's, or decided). */
  private async decided(caller: Caller, ids: readonly number[]): Promise<ProposalRow[]> {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0 || distinct.length > MAX_DECISIONS)
      throw AppError.field('ids', `Give from 1 to ${MAX_DECISIONS} proposal ids.`);
    const rows = await this.proposals.openForDecision(caller.userId, distinct);
    if (rows.length !== distinct.length) throw AppError.notFound('Open proposal');
    // In the order asked (they were locked in id order).
    return distinct.map((id) => rows.find((row) => row.id === id)!);
  }

  private async acceptNew(caller: Caller, row: ProposalRow): Promise<SubscriptionRecord> {
    const first = row.payments[0];
    const [record] = await this.subscriptions.createMany(caller, [
      {
        input: {
          product: row.product_id !== null ? { id: row.product_id } : { name: row.payee },
          type: RecordType.Subscription,
          price: row.price,
          currency: row.currency,
          billingType: BillingType.CalendarDate,
          billingCycle: row.billing_cycle,
          billingFrequency: row.billing_frequency,
          paymentDate: first.date,
          status: row.ongoing ? Status.Active : Status.Cancelled,
          recurring: 1,
          note: `Found in a bank statement: ${row.reasons.join('; ')}`,
        },
      },
    ]);
    if (row.price_steps.length > 1) {
      const steps = row.price_steps.map((step) => ({ effective_from: step.effectiveFrom, price: step.price }));
      await this.subscriptions.restorePriceSteps(caller, record.id, steps);
    }
    await this.ledger.restore(
      caller,
      row.payments.map((payment) => ({
        subscription_id: record.id,
        due_date: payment.date,
        expected_amount: payment.amount,
        currency: row.currency,
        status: 'paid' as const,
        paid_amount: payment.amount,
        paid_on: payment.date,
        note: null,
      })),
    );
    return record;
  }

  private async acceptTracked(caller: Caller, row: ProposalRow, id: number): Promise<SubscriptionRecord> {
    const record = await this.subscriptions.get(caller, id);
    const latest = row.price_steps[row.price_steps.length - 1];
    if (record.price_type !== row.currency || new Decimal(record.price).equals(row.price)) return record;
    // A price found from before the record began is its price from its first day.
    const effectiveFrom = latest.effectiveFrom > record.payment_date ? latest.effectiveFrom : record.payment_date;
    return this.subscriptions.changePrice(caller, id, { price: row.price, effectiveFrom });
  }
}

/** Whether two payee keys name one payee: equal, or one the other's first words ("netflix" and "netflix premium"). */
function samePayee(kept: string, found: string): boolean {
  return kept !== '' && (kept === found || found.startsWith(`${kept} `) || kept.startsWith(`${found} `));
}
