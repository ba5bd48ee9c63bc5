import { Migration } from '@mikro-orm/migrations';

export class Migration20261125030352_notification_targets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "notification_targets" ("id" serial primary key, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "updated_at" timestamp(6) null, "user_id" int not null, "name" varchar(100) not null, "scheme" varchar(10) not null, "sealed_url" text not null, "masked_url" text not null, "sealed_secret" text null);`,
    );
    this.addSql(`create index "notification_targets_user_id_index" on "notification_targets" ("user_id");`);

    this.addSql(
      `create table "alert_targets" ("alert_id" int not null, "target_id" int not null, constraint "alert_targets_pkey" primary key ("alert_id", "target_id"));`,
    );
    this.addSql(`create index "alert_targets_target_id_index" on "alert_targets" ("target_id");`);

    this.addSql(
      `alter table "notification_targets" add constraint "notification_targets_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "alert_targets" add constraint "alert_targets_alert_id_foreign" foreign key ("alert_id") references "alerts" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "alert_targets" add constraint "alert_targets_target_id_foreign" foreign key ("target_id") references "notification_targets" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`alter table "webhook_deliveries" add column "target_id" int null, add column "message" jsonb null;`);
    this.addSql(`alter table "webhook_deliveries" alter column "endpoint_id" drop not null;`);
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_target_id_foreign" foreign key ("target_id") references "notification_targets" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "webhook_deliveries_target_id_index" on "webhook_deliveries" ("target_id");`);
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_target_id_unique" unique ("event_id", "target_id");`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint webhook_deliveries_one_receiver check(("endpoint_id" is null) <> ("target_id" is null));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "alert_targets" drop constraint "alert_targets_target_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_target_id_foreign";`);

    this.addSql(`drop table if exists "notification_targets" cascade;`);

    this.addSql(`drop table if exists "alert_targets" cascade;`);

    this.addSql(`drop index "webhook_deliveries_target_id_index";`);
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_event_id_target_id_unique";`);
    this.addSql(`alter table "webhook_deliveries" drop constraint webhook_deliveries_one_receiver;`);
    this.addSql(`alter table "webhook_deliveries" drop column "target_id", drop column "message";`);

    this.addSql(`alter table "webhook_deliveries" alter column "endpoint_id" set not null;`);
  }
}
