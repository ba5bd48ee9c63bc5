import { Migration } from '@mikro-orm/migrations';

/** The household tables, with whose data version a change to them moves (see data_versions). */
const VERSIONED: Array<[table: string, owner: 'user_id' | 'owner_id' | 'subscription']> = [
  ['households', 'owner_id'],
  ['household_members', 'owner_id'],
  // A member's own version too: joining or leaving changes what they read (null: a name-only member, scope 0).
  ['household_members', 'user_id'],
  ['subscription_shares', 'subscription'],
  ['subscription_splits', 'subscription'],
];

/** Households: members, shared records with their payer and split. */
export class Migration20261125101146_households extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "households" ("id" serial primary key, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "updated_at" timestamp(6) null, "owner_id" int not null, "name" varchar(100) not null);`,
    );
    this.addSql(`alter table "households" add constraint "households_owner_id_unique" unique ("owner_id");`);

    this.addSql(
      `create table "household_members" ("id" serial primary key, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "updated_at" timestamp(6) null, "household_id" int not null, "owner_id" int not null, "name" varchar(200) not null, "email" varchar(320) null, "user_id" int null, "can_edit" boolean not null default false, "invitation_hash" text null, "joined_at" timestamp(6) null);`,
    );
    this.addSql(`create index "household_members_user_id_index" on "household_members" ("user_id");`);
    this.addSql(
      `create unique index "household_members_household_email_unique" on "household_members" ("household_id", lower("email")) where "email" is not null;`,
    );
    this.addSql(
      `create unique index "household_members_household_user_unique" on "household_members" ("household_id", "user_id") where "user_id" is not null;`,
    );

    this.addSql(
      `create table "subscription_splits" ("id" serial primary key, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "updated_at" timestamp(6) null, "subscription_id" int not null, "member_id" int not null, "weight" numeric(14,2) not null, "position" smallint not null);`,
    );
    this.addSql(`create index "subscription_splits_member_id_index" on "subscription_splits" ("member_id");`);
    this.addSql(
      `alter table "subscription_splits" add constraint "subscription_splits_subscription_id_member_id_unique" unique ("subscription_id", "member_id");`,
    );

    this.addSql(
      `create table "subscription_shares" ("id" serial primary key, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "updated_at" timestamp(6) null, "subscription_id" int not null, "household_id" int not null, "payer_id" int not null, "split_mode" text check ("split_mode" in ('equal', 'amounts', 'percentages')) not null);`,
    );
    this.addSql(
      `alter table "subscription_shares" add constraint "subscription_shares_subscription_id_unique" unique ("subscription_id");`,
    );
    this.addSql(`create index "subscription_shares_household_id_index" on "subscription_shares" ("household_id");`);

    this.addSql(
      `alter table "households" add constraint "households_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "household_members" add constraint "household_members_household_id_foreign" foreign key ("household_id") references "households" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "household_members" add constraint "household_members_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "household_members" add constraint "household_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "subscription_splits" add constraint "subscription_splits_subscription_id_foreign" foreign key ("subscription_id") references "subscriptions" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "subscription_splits" add constraint "subscription_splits_member_id_foreign" foreign key ("member_id") references "household_members" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "subscription_shares" add constraint "subscription_shares_subscription_id_foreign" foreign key ("subscription_id") references "subscriptions" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "subscription_shares" add constraint "subscription_shares_household_id_foreign" foreign key ("household_id") references "households" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "subscription_shares" add constraint "subscription_shares_payer_id_foreign" foreign key ("payer_id") references "household_members" ("id") on update cascade on delete cascade;`,
    );

    for (const [table, owner] of VERSIONED) {
      for (const [event, rows] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ]) {
        this.addSql(
          `create trigger "${table}_${event}_${owner}_data_versions" after ${event} on "${table}" referencing ${rows} table as "changed_rows" for each statement execute function "bump_data_versions"('${owner}');`,
        );
      }
    }
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "subscription_splits" cascade;`);
    this.addSql(`drop table if exists "subscription_shares" cascade;`);
    this.addSql(`drop table if exists "household_members" cascade;`);
    this.addSql(`drop table if exists "households" cascade;`);
  }
}
