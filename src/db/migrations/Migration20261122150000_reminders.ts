import { Migration } from '@mikro-orm/migrations';

/** Several alert definitions per record, and the reminders they owe (one row per record, definition, kind, date). */
export class Migration20261122150000_reminders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "subscription_alerts" (
      "subscription_id" int not null references "subscriptions" ("id") on delete cascade,
      "alert_id" int not null references "alerts" ("id") on delete cascade,
      "position" smallint not null,
      constraint "subscription_alerts_pkey" primary key ("subscription_id", "alert_id"));`);
    this.addSql(`create index "subscription_alerts_alert_id" on "subscription_alerts" ("alert_id");`);
    this.addSql(`create table "reminders" (
      "id" serial primary key,
      "user_id" int not null references "users" ("id") on delete cascade,
      "subscription_id" int not null references "subscriptions" ("id") on delete cascade,
      "alert_id" int not null references "alerts" ("id") on delete cascade,
      "kind" text not null check ("kind" in ('payment', 'refund')),
      "reminder_date" date not null,
      "fire_at" timestamp(6) not null,
      "status" text not null default 'SCHEDULED' check ("status" in ('SCHEDULED', 'SENT', 'CANCELLED')),
      "sent_at" timestamp(6) null,
      "created_at" timestamp(6) not null default (now() at time zone 'utc'),
      constraint "reminders_once" unique ("subscription_id", "alert_id", "kind", "reminder_date"));`);
    this.addSql(`create index "reminders_due" on "reminders" ("status", "fire_at");`);
    this.addSql(`create index "reminders_user" on "reminders" ("user_id", "fire_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "reminders";`);
    this.addSql(`drop table if exists "subscription_alerts";`);
  }
}
