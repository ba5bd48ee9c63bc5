import { Migration } from '@mikro-orm/migrations';

export class Migration20261122130900_foundation extends Migration {
  override async up(): Promise<void> {
    // Trigram indexes (search with typo tolerance) need pg_trgm.
    this.addSql(`create extension if not exists pg_trgm;`);
    // Login throttling and request rate limits when no Redis is configured (rate-limiter-flexible's layout).
    this.addSql(
      `create table "rate_limits" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);`,
    );

    this.addSql(
      `create table "exchange_rates" ("currency" varchar(3) not null, "per_usd" numeric(20,8) not null, "as_of" date not null, constraint "exchange_rates_pkey" primary key ("currency"));`,
    );

    this.addSql(
      `create table "users" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "email" varchar(320) not null, "password_hash" text not null, "name" varchar(200) not null, "first_name" varchar(100) not null default '', "last_name" varchar(100) not null default '', "role_id" smallint not null default 2, "plan_id" smallint not null default 1, "country" varchar(2) not null default 'US', "email_verified_at" timestamp(6) null, "description" text null, "image" text null, "created_by" int null, "reset_at" timestamp(6) null, "status" smallint not null default 1, "base_currency" varchar(3) not null default 'USD', "timezone" varchar(64) not null default 'UTC');`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(
      `create table "tags" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "user_id" int not null, "name" varchar(100) not null);`,
    );
    this.addSql(`alter table "tags" add constraint "tags_user_id_name_unique" unique ("user_id", "name");`);

    this.addSql(
      `create table "product_categories" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "user_id" int null, "name" varchar(100) not null);`,
    );
    this.addSql(`create index "product_categories_user_id_index" on "product_categories" ("user_id");`);

    this.addSql(
      `create table "products" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "owner_id" int null, "admin_id" int not null default 1, "category_id" int not null, "product_name" varchar(200) not null, "brandname" varchar(200) not null, "product_type" smallint not null default 1, "description" text not null default '', "url" text null, "url_app" text null, "app_url" text null, "image" text not null, "favicon" text not null, "status" smallint not null default 1, "sub_ltd" smallint not null default 1, "launch_year" varchar(4) null, "sub_platform" smallint not null default 1, "pricing_type" smallint not null default 1, "currency_code" varchar(3) not null default 'USD', "price1_name" varchar(100) null, "price1_value" numeric(14,2) null, "price2_name" varchar(100) null, "price2_value" numeric(14,2) null, "price3_name" varchar(100) null, "price3_value" numeric(14,2) null, "refund_days" int not null default 0, "billing_frequency" int not null default 1, "billing_cycle" smallint not null default 3, "ltdval_price" numeric(14,2) null, "ltdval_frequency" int null, "ltdval_cycle" smallint null, "created_by" int not null default 1);`,
    );
    this.addSql(`create index "products_owner_id_index" on "products" ("owner_id");`);
    this.addSql(`create index "products_name_trgm" on "products" using gin (lower("product_name") gin_trgm_ops);`);

    this.addSql(
      `create table "payment_modes" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "user_id" int not null, "name" varchar(100) not null);`,
    );
    this.addSql(
      `alter table "payment_modes" add constraint "payment_modes_user_id_name_unique" unique ("user_id", "name");`,
    );

    this.addSql(
      `create table "inbound_webhook_tokens" ("id" serial primary key, "user_id" int not null, "kind" text check ("kind" in ('CREATE', 'MANAGE')) not null, "token_hash" varchar(64) not null, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "last_used_at" timestamp(6) null, "revoked_at" timestamp(6) null);`,
    );
    this.addSql(`create index "inbound_webhook_tokens_user_id_index" on "inbound_webhook_tokens" ("user_id");`);
    this.addSql(
      `alter table "inbound_webhook_tokens" add constraint "inbound_webhook_tokens_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(
      `create table "folders" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "user_id" int not null, "name" varchar(100) not null, "color" varchar(20) null, "is_default" smallint not null default 0);`,
    );
    this.addSql(`alter table "folders" add constraint "folders_user_id_name_unique" unique ("user_id", "name");`);

    this.addSql(
      `create table "extension_settings" ("user_id" int not null, "auto_detect_subscriptions" smallint not null default 0, "browser_notifications" smallint not null default 0, "notify_before" int not null default 3, constraint "extension_settings_pkey" primary key ("user_id"));`,
    );

    this.addSql(
      `create table "alerts" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "user_id" int null, "is_default" smallint not null default 0, "alert_name" varchar(200) not null, "time_period" int not null, "time_cycle" smallint null, "time" time(0) not null, "alert_condition" smallint not null, "alert_contact" varchar(320) null, "alert_type" smallint not null, "timezone" varchar(64) not null, "alert_subs_type" smallint not null);`,
    );
    this.addSql(`create index "alerts_user_id_index" on "alerts" ("user_id");`);

    this.addSql(
      `create table "subscriptions" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "user_id" int not null, "folder_id" int null, "product_id" int not null, "category_id" int null, "alert_id" int not null default 1, "payment_mode_id" int null, "sub_id" int null, "platform_id" int null, "type" smallint not null, "image" text not null, "favicon" text null, "product_name" varchar(200) not null, "brandname" varchar(200) null, "product_type" smallint null, "description" text null, "price" numeric(14,2) not null, "price_type" varchar(3) not null, "recurring" smallint not null, "payment_date" date not null, "payment_date_upd" date null, "expiry_date" date null, "contract_expiry" date null, "homepage" text null, "pay_gateway_id" int not null default 0, "note" text null, "company_name" varchar(200) null, "discount_voucher" varchar(200) null, "alert_type" smallint null, "url" text null, "billing_frequency" int not null, "billing_cycle" smallint not null, "billing_type" smallint not null, "ltdval_price" numeric(14,2) null, "ltdval_frequency" int null, "ltdval_cycle" smallint null, "status" smallint not null, "pricing_type" smallint null, "timezone" varchar(64) not null, "currency_code" varchar(3) null, "refund_days" int null, "rating" smallint not null default 0, "sub_addon" smallint not null default 0, "created_by" int not null, "deleted_at" timestamp(6) null);`,
    );
    this.addSql(`create index "subscriptions_sub_id_index" on "subscriptions" ("sub_id");`);
    this.addSql(
      `create index "subscriptions_search_trgm" on "subscriptions" using gin (lower(coalesce("product_name", '') || ' ' || coalesce("brandname", '') || ' ' || coalesce("description", '') || ' ' || coalesce("note", '')) gin_trgm_ops);`,
    );
    this.addSql(`create index "subscriptions_user_status" on "subscriptions" ("user_id", "status");`);
    this.addSql(`create index "subscriptions_user_payment_date" on "subscriptions" ("user_id", "payment_date");`);

    this.addSql(
      `create table "subscription_tags" ("subscription_id" int not null, "tag_id" int not null, constraint "subscription_tags_pkey" primary key ("subscription_id", "tag_id"));`,
    );

    this.addSql(
      `create table "access_tokens" ("id" serial primary key, "user_id" int not null, "secret_hash" varchar(64) not null, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "expires_at" timestamp(6) not null, "revoked_at" timestamp(6) null);`,
    );
    this.addSql(`create index "access_tokens_user_id_index" on "access_tokens" ("user_id");`);

    this.addSql(
      `create table "webhook_endpoints" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "user_id" int not null, "url" text not null, "events" text[] not null default '{}', "secret" text not null, "enabled" boolean not null default true);`,
    );
    this.addSql(`create index "webhook_endpoints_user_id_index" on "webhook_endpoints" ("user_id");`);

    this.addSql(
      `create table "webhook_events" ("id" varchar(40) not null, "user_id" int not null, "topic" varchar(64) not null, "subscription_id" int null, "payload" jsonb not null, "created_at" timestamp(6) not null default (now() at time zone 'utc'), constraint "webhook_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_events_user_id_index" on "webhook_events" ("user_id");`);

    this.addSql(
      `create table "webhook_deliveries" ("id" serial primary key, "created_at" timestamp(6) not null default (now() at time zone 'utc'), "updated_at" timestamp(6) null, "event_id" varchar(40) not null, "endpoint_id" int not null, "status" text check ("status" in ('PENDING', 'SUCCEEDED', 'FAILED')) not null default 'PENDING', "attempt_count" int not null default 0, "next_attempt_at" timestamp(6) null, "completed_at" timestamp(6) null);`,
    );
    this.addSql(`create index "webhook_deliveries_endpoint_id_index" on "webhook_deliveries" ("endpoint_id");`);
    this.addSql(`create index "webhook_deliveries_due" on "webhook_deliveries" ("status", "next_attempt_at");`);
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_endpoint_id_unique" unique ("event_id", "endpoint_id");`,
    );

    this.addSql(
      `create table "webhook_delivery_attempts" ("id" serial primary key, "delivery_id" int not null, "attempt_number" int not null, "status_code" int null, "duration_ms" int not null, "response_excerpt" text null, "error" text null, "created_at" timestamp(6) not null default (now() at time zone 'utc'));`,
    );
    this.addSql(
      `create index "webhook_delivery_attempts_delivery_id_index" on "webhook_delivery_attempts" ("delivery_id");`,
    );

    this.addSql(
      `alter table "tags" add constraint "tags_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "product_categories" add constraint "product_categories_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "products" add constraint "products_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "products" add constraint "products_category_id_foreign" foreign key ("category_id") references "product_categories" ("id") on update cascade on delete restrict;`,
    );

    this.addSql(
      `alter table "payment_modes" add constraint "payment_modes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "inbound_webhook_tokens" add constraint "inbound_webhook_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "folders" add constraint "folders_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "extension_settings" add constraint "extension_settings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "alerts" add constraint "alerts_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_folder_id_foreign" foreign key ("folder_id") references "folders" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_product_id_foreign" foreign key ("product_id") references "products" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_category_id_foreign" foreign key ("category_id") references "product_categories" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_alert_id_foreign" foreign key ("alert_id") references "alerts" ("id") on update cascade on delete set default;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_payment_mode_id_foreign" foreign key ("payment_mode_id") references "payment_modes" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_sub_id_foreign" foreign key ("sub_id") references "subscriptions" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "subscription_tags" add constraint "subscription_tags_subscription_id_foreign" foreign key ("subscription_id") references "subscriptions" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "subscription_tags" add constraint "subscription_tags_tag_id_foreign" foreign key ("tag_id") references "tags" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "access_tokens" add constraint "access_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_endpoints" add constraint "webhook_endpoints_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_foreign" foreign key ("event_id") references "webhook_events" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_delivery_attempts" add constraint "webhook_delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rate_limits";`);
    this.addSql(`alter table "tags" drop constraint "tags_user_id_foreign";`);

    this.addSql(`alter table "product_categories" drop constraint "product_categories_user_id_foreign";`);

    this.addSql(`alter table "products" drop constraint "products_owner_id_foreign";`);

    this.addSql(`alter table "payment_modes" drop constraint "payment_modes_user_id_foreign";`);

    this.addSql(`alter table "inbound_webhook_tokens" drop constraint "inbound_webhook_tokens_user_id_foreign";`);

    this.addSql(`alter table "folders" drop constraint "folders_user_id_foreign";`);

    this.addSql(`alter table "extension_settings" drop constraint "extension_settings_user_id_foreign";`);

    this.addSql(`alter table "alerts" drop constraint "alerts_user_id_foreign";`);

    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_user_id_foreign";`);

    this.addSql(`alter table "access_tokens" drop constraint "access_tokens_user_id_foreign";`);

    this.addSql(`alter table "webhook_endpoints" drop constraint "webhook_endpoints_user_id_foreign";`);

    this.addSql(`alter table "webhook_events" drop constraint "webhook_events_user_id_foreign";`);

    this.addSql(`alter table "subscription_tags" drop constraint "subscription_tags_tag_id_foreign";`);

    this.addSql(`alter table "products" drop constraint "products_category_id_foreign";`);

    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_category_id_foreign";`);

    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_product_id_foreign";`);

    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_payment_mode_id_foreign";`);

    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_folder_id_foreign";`);

    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_alert_id_foreign";`);

    this.addSql(`alter table "subscriptions" drop constraint "subscriptions_sub_id_foreign";`);

    this.addSql(`alter table "subscription_tags" drop constraint "subscription_tags_subscription_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_endpoint_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_event_id_foreign";`);

    this.addSql(
      `alter table "webhook_delivery_attempts" drop constraint "webhook_delivery_attempts_delivery_id_foreign";`,
    );

    this.addSql(`drop table if exists "exchange_rates" cascade;`);

    this.addSql(`drop table if exists "users" cascade;`);

    this.addSql(`drop table if exists "tags" cascade;`);

    this.addSql(`drop table if exists "product_categories" cascade;`);

    this.addSql(`drop table if exists "products" cascade;`);

    this.addSql(`drop table if exists "payment_modes" cascade;`);

    this.addSql(`drop table if exists "inbound_webhook_tokens" cascade;`);

    this.addSql(`drop table if exists "folders" cascade;`);

    this.addSql(`drop table if exists "extension_settings" cascade;`);

    this.addSql(`drop table if exists "alerts" cascade;`);

    this.addSql(`drop table if exists "subscriptions" cascade;`);

    this.addSql(`drop table if exists "subscription_tags" cascade;`);

    this.addSql(`drop table if exists "access_tokens" cascade;`);

    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);

    this.addSql(`drop table if exists "webhook_events" cascade;`);

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);

    this.addSql(`drop table if exists "webhook_delivery_attempts" cascade;`);
  }
}
