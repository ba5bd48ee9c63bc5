import type { HouseholdService } from '../households/household.service';
import type { Caller } from '../platform/caller';
import { todayIn } from '../platform/dates';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import { toMoneyString } from '../platform/money';
import { hasLength } from '../platform/objects';
import type { PriceHistoryRepository } from '../subscriptions/price-history.repository';
import { moneyProblem } from '../subscriptions/subscription.input';
import type { EntryFilter, EntryRow, LedgerRepository, SettledEntry } from './ledger.repository';
import { plannedEntries } from './ledger-plan';

/** Entries answered at most per read. */
export const MAX_ENTRIES = 1000;

/** What was paid: the payment ledger, planned from the records and settled by their owner. */
export class LedgerService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: LedgerRepository,
    private readonly priceHistory: PriceHistoryRepository,
    private readonly households: HouseholdService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * The caller's entries, or those of the records shared in a household the caller belongs to (the ledger
   * brought up to date first: the sweep may not have run since a change).
   */
  async entries(caller: Caller, filter: EntryFilter): Promise<EntryRow[]> {
    const ownerId =
      filter.householdId === undefined
        ? caller.userId
        : (await this.households.membership(caller, filter.householdId)).owner_id;
    await this.reconcile(ownerId);
    return this.repository.list(ownerId, filter, MAX_ENTRIES);
  }

  /**
   * A reader of pages of `entries` (the ledger brought up to date once, first): rows `[offset, offset + limit)`
   * in due-date order, with how many the filtered ledger holds.
   */
  async entryPages(
    caller: Caller,
    filter: EntryFilter,
  ): Promise<(offset: number, limit: number) => Promise<{ rows: EntryRow[]; total: number }>> {
    const ownerId =
      filter.householdId === undefined
        ? caller.userId
        : (await this.households.membership(caller, filter.householdId)).owner_id;
    // Brought in line when the page is read, after its arguments passed: a refused read writes nothing.
    let reconciled: Promise<void> | undefined;
    return async (offset, limit) => {
      await (reconciled ??= this.reconcile(ownerId));
      return this.repository.page(ownerId, filter, offset, limit);
    };
  }

  /** One entry as the caller sees it: their own, or one of a record shared with them; else "not found". */
  async entry(caller: Caller, id: number): Promise<EntryRow> {
    const own = await this.repository.owned(caller.userId, id);
    if (own) return own;
    const subscriptionId = await this.repository.subscriptionOf(id);
    const ownerId =
      subscriptionId === null ? null : await this.households.ownerFor(caller.userId, subscriptionId, 'read');
    const shared = ownerId === null ? null : await this.repository.owned(ownerId, id);
    if (!shared) throw AppError.notFound('Payment entry');
    return shared;
  }

  /** Records an entry as paid: the expected amount and today (in the record's zone) unless given. */
  async markPaid(
    caller: Caller,
    id: number,
    paid: { amount?: string | null; paidAt?: string | null; note?: string | null },
  ): Promise<EntryRow> {
    if (paid.amount !== undefined && paid.amount !== null) {
      const problem = moneyProblem('amount', paid.amount);
      if (problem) throw AppError.field('amount', problem);
    }
    return this.settle(caller, id, paid.note, (entry) => ({
      status: 'paid',
      paidAmount: paid.amount ?? entry.expected_amount,
      paidOn: paid.paidAt ?? todayIn(entry.timezone, this.clock()),
    }));
  }

  /** Records an entry as skipped (not paid, and not owed any more). */
  async markSkipped(caller: Caller, id: number, note?: string | null): Promise<EntryRow> {
    return this.settle(caller, id, note, () => ({ status: 'skipped', paidAmount: null, paidOn: null }));
  }

  /** The caller's paid and skipped entries, for an export. */
  settled(caller: Caller): Promise<EntryRow[]> {
    return this.repository.settled(caller.userId);
  }

  /** Imported entries of the caller's records, in the import's transaction. */
  async restore(caller: Caller, entries: readonly SettledEntry[]): Promise<void> {
    if (entries.length > 0) await this.repository.restore(caller.userId, entries);
  }

  /** The sweep's part: the ledgers of users whose records have a next payment without its entry. */
  async sweep(limit = 200): Promise<number> {
    const users = await this.repository.usersBehind(limit);
    for (const userId of users) await this.reconcile(userId);
    return users.length;
  }

  private async reconcile(userId: number): Promise<void> {
    const records = await this.repository.activeRecords(userId);
    const steps = await this.priceHistory.of(records.map((record) => record.id));
    const now = this.clock();
    const planned = records.flatMap((record) =>
      plannedEntries(
        record,
        steps.filter((step) => step.subscription_id === record.id),
        now,
      ),
    );
    await this.repository.reconcile(userId, planned, now);
  }

  /** An entry of a record shared in a household where the caller has edit rights, locked; else null. */
  private async lockShared(caller: Caller, id: number): Promise<EntryRow | null> {
    const subscriptionId = await this.repository.subscriptionOf(id);
    const ownerId =
      subscriptionId === null ? null : await this.households.ownerFor(caller.userId, subscriptionId, 'edit');
    return ownerId === null ? null : this.repository.lockOwned(ownerId, id);
  }

  private async settle(
    caller: Caller,
    id: number,
    note: string | null | undefined,
    outcome: (entry: EntryRow) => Pick<EntryRow, 'status'> & { paidAmount: string | null; paidOn: string | null },
  ): Promise<EntryRow> {
    if (note !== undefined && note !== null && !hasLength(note, 0, 1000))
      throw AppError.field('note', 'The note must be at most 1000 characters.');
    return this.transactions.transaction(async () => {
      const entry = (await this.repository.lockOwned(caller.userId, id)) ?? (await this.lockShared(caller, id));
      if (!entry) throw AppError.notFound('Payment entry');
      const settled = { ...outcome(entry), note: note ?? entry.note };
      await this.repository.settle(id, settled);
      return {
        ...entry,
        status: settled.status,
        paid_amount: settled.paidAmount === null ? null : toMoneyString(settled.paidAmount),
        paid_on: settled.paidOn,
        note: settled.note,
      };
    });
  }
}
