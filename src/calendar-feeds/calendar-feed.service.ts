import type { AlertRepository } from '../alerts/alert.repository';
import { randomSecret, sha256Hex } from '../auth/secrets';
import type { Caller } from '../platform/caller';
import { todayIn } from '../platform/dates';
import { fromUtcTimestamp } from '../platform/db/timestamps';
import { AppError } from '../platform/errors';
import { hasLength } from '../platform/objects';
import { appliesTo } from '../reminders/reminder-schedule';
import { label, periodInWords, Status, STATUS_LABELS } from '../subscriptions/codes';
import type { SubscriptionRow } from '../subscriptions/subscription.record';
import { scheduleOf } from '../subscriptions/subscription.record';
import type { SubscriptionRepository } from '../subscriptions/subscription.repository';
import type { CalendarFeed } from './calendar-feed.entity';
import type { CalendarFeedRepository, FeedByToken } from './calendar-feed.repository';
import { type FeedEvent, renderCalendar } from './calendar-ics';

const TOKEN_PATTERN = /^calf_[A-Za-z0-9_-]{20,80}$/;

/** A feed's answer: its validators, and its text made only when the client's copy is stale. */
export interface FeedAnswer {
  etag: string;
  lastModified: Date | null;
  text(): Promise<string>;
}

/** Private iCalendar feeds of a user's payments: made, listed and revoked by the owner; read by token. */
export class CalendarFeedService {
  constructor(
    private readonly feeds: CalendarFeedRepository,
    private readonly alerts: AlertRepository,
    private readonly subscriptions: SubscriptionRepository,
    private readonly baseUrl: string,
  ) {}

  /** A new feed and its URL, which holds the token and is shown this once. */
  async create(
    caller: Caller,
    input: { name: string; includeReminders: boolean },
  ): Promise<{ feed: CalendarFeed; url: string }> {
    const name = input.name.trim();
    if (!hasLength(name, 1, 100)) throw AppError.field('name', 'The name must be from 1 to 100 characters.');
    const token = `calf_${randomSecret(30)}`;
    const feed = await this.feeds.create(caller.userId, name, input.includeReminders, sha256Hex(token));
    return { feed, url: `${this.baseUrl}/calendar/${token}.ics` };
  }

  async list(caller: Caller): Promise<CalendarFeed[]> {
    return this.feeds.ofUser(caller.userId);
  }

  /** Ends a feed: its URL answers 404 from then on. */
  async revoke(caller: Caller, id: number): Promise<CalendarFeed> {
    const feed = await this.feeds.revoke(caller.userId, id);
    if (!feed) throw AppError.notFound('Calendar feed');
    return feed;
  }

  /** The feed a token opens, or null for an unknown, malformed or revoked one. */
  async read(token: string): Promise<FeedAnswer | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const feed = await this.feeds.byTokenHash(sha256Hex(token));
    if (!feed) return null;
    return {
      // The feed's text is made from the owner's data alone, so its version names it.
      etag: `"${feed.id}-${feed.include_reminders ? 'r' : 'n'}-${feed.data_version}"`,
      lastModified: await this.lastModified(feed),
      text: async () =>
        renderCalendar(
          feed.name,
          new URL(this.baseUrl).hostname,
          await this.events(feed.user_id, feed.include_reminders),
        ),
    };
  }

  /**
   * The feed's Last-Modified, made from its data version as the ETag is, so that any change to what it shows
   * changes both: the time the feed was first answered under that version (a second past the previous
   * version's at least, since HTTP dates are whole seconds). The version only grows; a request that read an
   * older one than the feed was dated under meanwhile answers without a Last-Modified.
   */
  private async lastModified(feed: FeedByToken): Promise<Date | null> {
    let dated =
      feed.last_modified_version === null
        ? null
        : { last_modified_version: feed.last_modified_version, last_modified_at: feed.last_modified_at! };
    if (dated === null || BigInt(dated.last_modified_version) < BigInt(feed.data_version))
      dated = await this.feeds.dateVersion(feed.id, feed.data_version);
    return dated?.last_modified_version === feed.data_version ? fromUtcTimestamp(dated.last_modified_at) : null;
  }

  private async events(userId: number, includeReminders: boolean): Promise<FeedEvent[]> {
    const rows = await this.subscriptions.inForce(userId);
    const reminders = includeReminders ? await this.remindersOf(rows) : new Map<number, FeedEvent['reminders']>();
    return rows.map((row) => ({
      id: row.id,
      summary: `${row.product_name}: ${row.price} ${row.price_type}`,
      description: [
        `${row.price} ${row.price_type}${row.recurring === 1 ? `, ${periodInWords(row.billing_cycle, row.billing_frequency)}` : ', once'}`,
        `Status: ${label(STATUS_LABELS, row.status)}`,
        row.note ? `Note: ${row.note}` : null,
      ]
        .filter(Boolean)
        .join('\n'),
      url: row.homepage,
      schedule: scheduleOf(row),
      recurring: row.recurring === 1,
      until: endOf(row),
      changedAt: row.updated_at ?? row.created_at,
      reminders: reminders.get(row.id) ?? [],
    }));
  }

  /** Each record's alert definitions (its alert, then its others), where they apply to its type. */
  private async remindersOf(rows: SubscriptionRow[]): Promise<Map<number, FeedEvent['reminders']>> {
    const links = await this.subscriptions.alertLinks(rows.map((row) => row.id));
    const definitions = new Map(
      (await this.alerts.definitions([...new Set(links.map((link) => link.alert_id))])).map((d) => [d.id, d]),
    );
    const records = new Map(rows.map((row) => [row.id, row]));
    const byRecord = new Map<number, FeedEvent['reminders'][number][]>();
    for (const link of links) {
      const definition = definitions.get(link.alert_id);
      if (!definition || !appliesTo(records.get(link.subscription_id)!, definition)) continue;
      const list = byRecord.get(link.subscription_id) ?? [];
      list.push(definition);
      byRecord.set(link.subscription_id, list);
    }
    return byRecord;
  }
}

/**
 * The last day an ended record's payments may fall on: an Expired record's expiry date, else the day (in the
 * record's zone) of its last change, when it was cancelled or refunded; an Active record's expiry date, if it has one.
 */
function endOf(row: SubscriptionRow): string | null {
  if (row.status === Status.Active) return row.expiry_date;
  if (row.status === Status.Expired && row.expiry_date) return row.expiry_date;
  return todayIn(row.timezone, fromUtcTimestamp(row.updated_at ?? row.created_at));
}
