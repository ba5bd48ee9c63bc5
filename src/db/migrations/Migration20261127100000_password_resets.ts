import { Migration } from '@mikro-orm/migrations';

/**
 * Password-reset links (issue 44): only the SHA-256 of a link's token is stored; a link works once (used_at),
 * until expires_at. The account's rows go with it.
 */
export class Migration20261127100000_password_resets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "password_resets" ("id" serial primary key, "user_id" int not null, "token_hash" varchar(64) not null, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "expires_at" timestamp(6) not null, "used_at" timestamp(6) null);`,
    );
    this.addSql(`create index "password_resets_user_id_index" on "password_resets" ("user_id");`);
    this.addSql(
      `alter table "password_resets" add constraint "password_resets_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(
      `alter table "password_resets" add constraint "password_resets_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "password_resets" cascade;`);
  }
}
