import { Migration } from '@mikro-orm/migrations';

export class Migration20261124171348_calendar_feeds extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "calendar_feeds" ("id" serial primary key, "user_id" int not null, "name" varchar(100) not null, "include_reminders" boolean not null, "token_hash" varchar(64) not null, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "revoked_at" timestamp(6) null);`,
    );
    this.addSql(`create index "calendar_feeds_user_id_index" on "calendar_feeds" ("user_id");`);
    this.addSql(
      `alter table "calendar_feeds" add constraint "calendar_feeds_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(
      `alter table "calendar_feeds" add constraint "calendar_feeds_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "calendar_feeds" cascade;`);
  }
}
