import { Migration } from '@mikro-orm/migrations';

/**
 * The instance's admin. An admin is a user with role_id 1 (the column the original service has; 2, its
 * default, is an ordinary user): an instance with accounts and no admin gets its oldest active account as
 * admin. `instance_settings` holds what an admin sets at run time (the sign-up mode) by name. `invitations`
 * keeps only the hash of a code. `audit_log` keeps an entry per admin action; it names accounts by id and
 * e-mail without a foreign key, so the record of a deletion outlives the account deleted.
 */
export class Migration20261127130000_admin extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "instance_settings" (
      "name" varchar(64) primary key,
      "value" text not null,
      "updated_at" timestamp not null default (now() at time zone 'utc'));`);
    this.addSql(`create table "invitations" (
      "id" serial primary key,
      "code_hash" char(64) not null unique,
      "email" varchar(320) null,
      "created_by" int null references "users" ("id") on delete set null,
      "created_at" timestamp not null default (now() at time zone 'utc'),
      "expires_at" timestamp not null,
      "used_at" timestamp null,
      "used_by" int null references "users" ("id") on delete set null,
      "revoked_at" timestamp null);`);
    this.addSql(`create table "audit_log" (
      "id" serial primary key,
      "created_at" timestamp not null default (now() at time zone 'utc'),
      "actor_id" int null,
      "actor_email" varchar(320) null,
      "action" varchar(40) not null,
      "target_id" int null,
      "target_email" varchar(320) null,
      "details" jsonb not null default '{}');`);
    this.addSql(`update "users" set "role_id" = 1
      where "id" = (select "id" from "users" where "status" = 1 order by "created_at", "id" limit 1)
        and not exists (select 1 from "users" where "role_id" = 1);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "audit_log";`);
    this.addSql(`drop table if exists "invitations";`);
    this.addSql(`drop table if exists "instance_settings";`);
  }
}
