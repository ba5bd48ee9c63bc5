import { Migration } from '@mikro-orm/migrations';

/** Event bodies kept as the JSON text they were written as (json, not jsonb), so deliveries post that text as it is. */
export class Migration20261125160000_webhook_payload_text extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_events" alter column "payload" type json using "payload"::json;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_events" alter column "payload" type jsonb using "payload"::jsonb;`);
  }
}
