import type { Caller, TokenCheckRow } from '../platform/caller';
import { endOfMonth, epochDay, isCalendarDate, todayIn } from '../platform/dates';
import { AppError } from '../platform/errors';
import type { SharedRecordAccess } from '../platform/shared-records';
import { occurrencesBetween } from './payment-dates';
import type { PriceHistoryRepository, PriceStep } from './price-history.repository';
import type { RecordPageSelection } from './record-page.sql';
import type { JsonArray } from './record-shape.sql';
import type { ListQuery } from './subscription.list';
import type { Loaders } from './subscription.loaders';
import { asSeenBy, scheduleOf, type SubscriptionRecord, todayCache, toRecord } from './subscription.record';
import type { CheckedJsonArray, SubscriptionRepository } from './subscription.repository';

/** One payment date of one record, with an id that is stable for the same (record, date). */
export interface CalendarEntry {
  id: number;
  date: string;
  record: SubscriptionRecord;
}

export const MAX_RANGE_DAYS = 366;

/** The original service's upcoming window. */
export const DEFAULT_UPCOMING_DAYS = 7;

/** Stable per (record, date) and unique: the record id times ten million plus the date's day number. */
export function calendarEntryId(subscriptionId: number, date: string): number {
  return subscriptionId * 10_000_000 + epochDay(date);
}

/** Whether the caller's token is live, after a read that ran its pending check (if any) found `check`. */
async function liveAfter(caller: Caller, check: TokenCheckRow | undefined): Promise<boolean> {
  return !caller.pending || caller.pending.settle(check);
}

/** The array of a read that ran the caller's pending token check, when the token proved live. */
async function checkedArray(caller: Caller, read: CheckedJsonArray): Promise<JsonArray> {
  if (!(await liveAfter(caller, read.check))) throw AppError.unauthenticated();
  return { parts: read.parts, count: read.count };
}

function checkUpcomingDays(days: number): void {
  if (!Number.isInteger(days) || days < 0 || days > MAX_RANGE_DAYS) {
    throw AppError.field('days', `The days must be a whole number from 0 to ${MAX_RANGE_DAYS}.`);
  }
}

/** The reads of records: one, a page, the upcoming payments, the calendar, an export's all, a report's period. */
export class SubscriptionReads {
  constructor(
    protected readonly repository: SubscriptionRepository,
    protected readonly priceHistory: PriceHistoryRepository,
    private readonly loaders: () => Loaders,
    private readonly sharedRecords: SharedRecordAccess,
    protected readonly clock: () => Date,
  ) {}

  /** Batch loaders for the rows nested under a page of records (one request's worth). */
  relatedLoaders(): Loaders {
    return this.loaders();
  }

  /** One live record: the caller's, or one shared in a household the caller is a member of. */
  async get(caller: Caller, id: number): Promise<SubscriptionRecord> {
    const record = await this.asOwnerOrMember(caller, id, 'read', async (actor) => {
      const row = await this.repository.live(actor.userId, id);
      if (!row) throw AppError.notFound('Subscription');
      return toRecord(row, this.clock());
    });
    return asSeenBy(record, caller.userId);
  }

  /** The stored price steps of the caller's records (a record whose price never changed has none), for an export. */
  priceSteps(caller: Caller): Promise<PriceStep[]> {
    return this.priceHistory.ofUser(caller.userId);
  }

  /**
   * The live records of `ownerId` among `ids` (a household's shared records, found by the households feature),
   * as the caller, the owner or a member, may read them.
   */
  async ofOwner(caller: Caller, ownerId: number, ids: number[]): Promise<SubscriptionRecord[]> {
    const today = todayCache(this.clock());
    const rows = await this.repository.byIds(ownerId, ids);
    return rows.map((row) => asSeenBy(toRecord(row, today), caller.userId));
  }

  /** Every live record of the caller, with each one's tags and alert definitions (an export's). */
  async all(caller: Caller): Promise<Array<{ record: SubscriptionRecord; tags: string[]; alertIds: number[] }>> {
    const rows = await this.repository.allLive(caller.userId);
    const today = todayCache(this.clock());
    const ids = rows.map((row) => row.id);
    const [tags, alerts] = await Promise.all([this.repository.tagsOf(ids), this.repository.alertLinks(ids)]);
    const byRecord = new Map(
      rows.map((row) => [row.id, { record: toRecord(row, today), tags: [] as string[], alertIds: [] as number[] }]),
    );
    for (const tag of tags) byRecord.get(tag.subscription_id)!.tags.push(tag.name);
    for (const link of alerts) byRecord.get(link.subscription_id)!.alertIds.push(link.alert_id);
    return [...byRecord.values()];
  }

  /** A page of the caller's records as the REST list's JSON array. */
  async listJson(caller: Caller, query: ListQuery): Promise<JsonArray> {
    return checkedArray(
      caller,
      await this.repository.pageJson(caller.userId, query, this.clock(), caller.pending?.sql),
    );
  }

  /**
   * A page of the caller's records as a compiled GraphQL selection writes it (see record-page.sql.ts): its JSON
   * in parts, as bytes, or null when the caller's token, checked in the same statement, proved not live.
   */
  async pageAnswer(caller: Caller, selection: RecordPageSelection, query: ListQuery): Promise<Buffer[] | null> {
    const read = await this.repository.pageAnswer(caller.userId, selection, query, this.clock(), caller.pending?.sql);
    return (await liveAfter(caller, read?.check)) ? read!.json : null;
  }

  /** A page of the caller's records and how many records its search and filters match in all. */
  async page(caller: Caller, query: ListQuery): Promise<{ records: SubscriptionRecord[]; total: number }> {
    const { rows, total } = await this.repository.pageWithTotal(caller.userId, query);
    const today = todayCache(this.clock());
    return { records: rows.map((row) => toRecord(row, today)), total };
  }

  /** Active records whose next payment falls within the next `days` days, soonest first. */
  async upcoming(caller: Caller, days: number = DEFAULT_UPCOMING_DAYS): Promise<SubscriptionRecord[]> {
    checkUpcomingDays(days);
    const now = this.clock();
    const today = todayCache(now);
    return (await this.repository.upcoming(caller.userId, days, now)).map((row) => toRecord(row, today));
  }

  /** upcoming's records as the REST answer's JSON array. */
  async upcomingJson(caller: Caller, days: number = DEFAULT_UPCOMING_DAYS): Promise<JsonArray> {
    checkUpcomingDays(days);
    return checkedArray(
      caller,
      await this.repository.upcomingJson(caller.userId, days, this.clock(), caller.pending?.sql),
    );
  }

  /**
   * One entry per payment date of every Active record within [from, to]; without a range, the current month
   * in the user's timezone.
   */
  async calendar(caller: Caller, from?: string, to?: string): Promise<CalendarEntry[]> {
    const now = this.clock();
    [from, to] = await this.dateRange(caller, from, to);
    const rows = await this.repository.active(caller.userId, { anchoredBy: to });
    const entries: CalendarEntry[] = [];
    const today = todayCache(now);
    for (const row of rows) {
      const record = toRecord(row, today);
      const dates =
        row.recurring === 1
          ? occurrencesBetween(scheduleOf(row), from, to)
          : row.payment_date >= from
            ? [row.payment_date]
            : [];
      for (const date of dates) entries.push({ id: calendarEntryId(row.id, date), date, record });
    }
    return entries.sort((a, b) => a.date.localeCompare(b.date) || a.record.id - b.record.id);
  }

  /**
   * A checked report period [from, to] (at most MAX_RANGE_DAYS; a missing bound from the current month in the
   * caller's zone) with the settings reports depend on.
   */
  async reportPeriod(
    caller: Caller,
    from?: string,
    to?: string,
  ): Promise<{ from: string; to: string; timezone: string; baseCurrency: string }> {
    const user = await this.ownerSettings(caller);
    [from, to] = await this.dateRange(caller, from, to, user);
    return { from, to, timezone: user.timezone, baseCurrency: user.baseCurrency };
  }

  /** A checked [from, to] of at most MAX_RANGE_DAYS; a missing bound comes from the current month in the user's zone. */
  private async dateRange(
    caller: Caller,
    from?: string,
    to?: string,
    known?: { timezone: string },
  ): Promise<[string, string]> {
    if (from === undefined || to === undefined) {
      const user = known ?? (await this.ownerSettings(caller));
      const today = todayIn(user.timezone, this.clock());
      from ??= `${today.slice(0, 8)}01`;
      to ??= isCalendarDate(from) ? endOfMonth(from) : from;
    }
    const errors: Record<string, string[]> = {};
    if (!isCalendarDate(from)) errors.start = ['The start must be a calendar date (YYYY-MM-DD).'];
    if (!isCalendarDate(to)) errors.end = ['The end must be a calendar date (YYYY-MM-DD).'];
    else if (!errors.start && (to < from || epochDay(to) - epochDay(from) + 1 > MAX_RANGE_DAYS)) {
      errors.end = [`The end must be on or after the start, at most ${MAX_RANGE_DAYS} days in all.`];
    }
    if (Object.keys(errors).length > 0) throw AppError.badInput('The given data was invalid', errors);
    return [from, to];
  }

  private async ownerSettings(caller: Caller): Promise<{ timezone: string; baseCurrency: string }> {
    const settings = caller.settings ?? (await this.repository.ownerSettings(caller.userId));
    if (!settings) throw AppError.notFound('User');
    return settings;
  }

  /**
   * Runs `work` as the caller; when the record is not theirs (NOT_FOUND), as its owner if the caller is a member
   * of the household it is shared in (`edit`: with edit rights). The owner's own path costs nothing more.
   */
  protected async asOwnerOrMember<T>(
    caller: Caller,
    id: number,
    need: 'read' | 'edit',
    work: (actor: Caller) => Promise<T>,
  ): Promise<T> {
    try {
      return await work(caller);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
      const owner = await this.sharedRecords.ownerFor(caller.userId, id, need);
      if (owner === null || owner === caller.userId) throw error;
      return work({ userId: owner, tokenId: null });
    }
  }
}
