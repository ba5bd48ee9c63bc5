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
  /** The owner's last change to a record (UTC), or null without records. */
  last_modified: string | null;
}

/** The statement of the feed's hot path (every calendar app's poll); the rest go through the unit of work. */
export class CalendarFeedRepository {
  constructor(private readonly reads: DirectReads) {}

  async byTokenHash(tokenHash: string): Promise<FeedByToken | null> {
    const [row] = await this.reads.rows<FeedByToken>(
      `select f."id", f."user_id", f."name", f."include_reminders",
              ${dataVersionSql('f."user_id"')} as "data_version",
              (select max(coalesce(s."updated_at", s."created_at")) from "subscriptions" s where s."user_id" = f."user_id") as "last_modified"
         from "calendar_feeds" f
        where f."token_hash" = ? and f."revoked_at" is null`,
      [tokenHash],
    );
    return row ?? null;
  }
}
