import { Migration } from '@mikro-orm/migrations';

/** Answers of inbound webhook requests by Idempotency-Key, so a retried request changes nothing. */
export class Migration20261122140000_inbound_idempotency extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "inbound_idempotency_keys" (
      "token_id" int not null references "inbound_webhook_tokens" ("id") on delete cascade,
      "key" varchar(200) not null,
      "status_code" int not null,
      "body" jsonb not null,
      "created_at" timestamp(6) not null default (now() at time zone 'utc'),
      constraint "inbound_idempotency_keys_pkey" primary key ("token_id", "key"));`);
    this.addSql(`create index "inbound_idempotency_keys_created_at" on "inbound_idempotency_keys" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "inbound_idempotency_keys";`);
  }
}
