import { Migration } from '@mikro-orm/migrations';

/**
 * What detection keeps of a bank statement: the recurring payments it proposed and the user's decision on
 * each (open, accepted, dismissed), one row per series, so a dismissed series is never proposed again; and the
 * column mappings a user gave for a CSV layout, so the next file of that layout needs none. The statement's
 * transactions themselves are not kept.
 */
export class Migration20261126140000_statement_proposals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "statement_proposals" (
      "id" serial primary key,
      "user_id" int not null references "users" ("id") on delete cascade,
      "series_key" varchar(300) not null,
      "payee" varchar(200) not null,
      "product_id" int null references "products" ("id") on delete set null,
      "currency" char(3) not null,
      "billing_cycle" smallint not null,
      "billing_frequency" smallint not null,
      "price" numeric(14, 2) not null,
      "price_steps" jsonb not null,
      "payments" jsonb not null,
      "next_date" date not null,
      "ongoing" boolean not null,
      "confidence" numeric(4, 3) not null,
      "reasons" jsonb not null,
      "tracked_subscription_id" int null references "subscriptions" ("id") on delete set null,
      "status" varchar(10) not null default 'open' check ("status" in ('open', 'accepted', 'dismissed')),
      "subscription_id" int null references "subscriptions" ("id") on delete set null,
      "created_at" timestamp not null default (now() at time zone 'utc'),
      "decided_at" timestamp null,
      constraint "statement_proposals_series" unique ("user_id", "series_key"));`);
    this.addSql(`create table "statement_layouts" (
      "user_id" int not null references "users" ("id") on delete cascade,
      "layout_key" varchar(2000) not null,
      "mapping" jsonb not null,
      "updated_at" timestamp not null default (now() at time zone 'utc'),
      constraint "statement_layouts_pkey" primary key ("user_id", "layout_key"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "statement_layouts";`);
    this.addSql(`drop table if exists "statement_proposals";`);
  }
}
