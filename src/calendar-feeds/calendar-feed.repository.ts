import sql, { raw } from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { dataVersionSql } from '../platform/db/data-version';
import type { DirectReads } from '../platform/db/direct-reads';
import { utcTimestamp } from '../platform/db/timestamps';
import { CalendarFeed } from './calendar-feed.entity';

/** A live feed found by its token, with what its answer's validators are made from. */
export interface FeedByToken {
  id: number;
  user_id: number;
  name: string;
  include_reminders: boolean;
  /** The owner's data version (see the data_versions migration): the feed changes only with it. */
  data_version: string;
  /** The data version its Last-Modified was last given for (null: never), and that Last-Modified (UTC). */
  last_modified_version: string | null;
  last_modified_at: string | null;
}

/** The calendar_feeds table; the lookup by token and the dating of versions are the hot path (every calendar app's poll). */
export class CalendarFeedRepository {
  constructor(
    private readonly db: DataSource,
    private readonly reads: DirectReads,
  ) {}

  async create(userId: number, name: string, includeReminders: boolean, tokenHash: string): Promise<CalendarFeed> {
    return this.db.insert(CalendarFeed, { user: userId, name, includeReminders, tokenHash });
  }

  ofUser(userId: number): Promise<CalendarFeed[]> {
    return this.db.em().find(CalendarFeed, { user: userId }, { orderBy: { id: 'asc' } });
  }

  /** Ends the user's feed (a revoked one keeps its first revocation time); null when they have no such feed. */
  async revoke(userId: number, id: number): Promise<CalendarFeed | null> {
    const em = this.db.em();
    const feed = await em.findOne(CalendarFeed, { id, user: userId });
    if (!feed) return null;
    feed.revokedAt ??= utcTimestamp();
    await em.flush();
    return feed;
  }

  async byTokenHash(tokenHash: string): Promise<FeedByToken | null> {
    const [row] = await this.reads.rows<FeedByToken>(
      sql`select f."id", f."user_id", f."name", f."include_reminders",
              ${raw(dataVersionSql('f."user_id"'))} as "data_version", f."last_modified_version"::text, f."last_modified_at"
         from "calendar_feeds" f
        where f."token_hash" = ${tokenHash} and f."revoked_at" is null`,
    );
    return row ?? null;
  }

  /**
   * Dates a newer data version of the feed: now (whole seconds), and always a second past the time the
   * previous one was given, so that every version has a Last-Modified of its own. Answers the version dated
   * last and its time, which are another request's when that one dated this or a newer version first.
   */
  async dateVersion(
    id: number,
    version: string,
  ): Promise<{ last_modified_version: string; last_modified_at: string } | null> {
    type Dated = { last_modified_version: string; last_modified_at: string };
    const [dated] = await this.reads.writeRows<Dated>(
      sql`update "calendar_feeds"
          set "last_modified_version" = ${version}::bigint,
              "last_modified_at" = greatest(date_trunc('second', now() at time zone 'utc'), "last_modified_at" + interval '1 second')
        where "id" = ${id} and ("last_modified_version" is null or "last_modified_version" < ${version}::bigint)
        returning "last_modified_version"::text, "last_modified_at"`,
    );
    if (dated) return dated;
    const [current] = await this.reads.rows<Dated>(
      sql`select "last_modified_version"::text, "last_modified_at" from "calendar_feeds" where "id" = ${id} and "last_modified_version" is not null`,
    );
    return current ?? null;
  }
}
