import { dataVersionSql } from '../platform/db/data-version';
import type { DirectReads } from '../platform/db/direct-reads';

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

/** The statement of the feed's hot path (every calendar app's poll); the rest go through the unit of work. */
export class CalendarFeedRepository {
  constructor(private readonly reads: DirectReads) {}

  async byTokenHash(tokenHash: string): Promise<FeedByToken | null> {
    const [row] = await this.reads.rows<FeedByToken>(
      `select f."id", f."user_id", f."name", f."include_reminders",
              ${dataVersionSql('f."user_id"')} as "data_version", f."last_modified_version"::text, f."last_modified_at"
         from "calendar_feeds" f
        where f."token_hash" = ? and f."revoked_at" is null`,
      [tokenHash],
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
    const [dated] = await this.reads.rows<Dated>(
      `update "calendar_feeds"
          set "last_modified_version" = ?::bigint,
              "last_modified_at" = greatest(date_trunc('second', now() at time zone 'utc'), "last_modified_at" + interval '1 second')
        where "id" = ? and ("last_modified_version" is null or "last_modified_version" < ?::bigint)
        returning "last_modified_version"::text, "last_modified_at"`,
      [version, id, version],
    );
    if (dated) return dated;
    const [current] = await this.reads.rows<Dated>(
      `select "last_modified_version"::text, "last_modified_at" from "calendar_feeds" where "id" = ? and "last_modified_version" is not null`,
      [id],
    );
    return current ?? null;
  }
}
