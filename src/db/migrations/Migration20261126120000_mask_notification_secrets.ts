import { Migration } from '@mikro-orm/migrations';

/**
 * Targets saved before the masked forms hid the ntfy topic and a JSON target's path and query (and a JSON
 * target's user given without a password, a token) get those masked in the stored form too. The sealed URL
 * is unchanged; the masked form is rewritten from itself, since a migration has no NOTIFY_SECRET_KEY.
 */
export class Migration20261126120000_mask_notification_secrets extends Migration {
  override async up(): Promise<void> {
    // ntfy: scheme://[user:****@]host/[path/]topic, the topic last.
    this.addSql(
      `update "notification_targets" set "masked_url" = regexp_replace("masked_url", '/[^/]*$', '/****') where "scheme" = 'ntfy';`,
    );
    // json: scheme://[user[:****]@]host/path[?…]; a URL's user has its ":", "@" and "/" percent-encoded.
    this.addSql(
      `update "notification_targets"
          set "masked_url" = regexp_replace(regexp_replace("masked_url", '^([a-z]+://)[^:@/]+@', '\\1****@'), '^([a-z]+://[^/]*)/.+$', '\\1/****')
        where "scheme" = 'json';`,
    );
  }

  override async down(): Promise<void> {
    // The hidden parts are gone from the masked form (saving the target's url writes it anew).
  }
}
