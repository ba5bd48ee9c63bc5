import { Migration } from '@mikro-orm/migrations';

/** The tables answers of records and spending read, with whose data version a change to them moves. */
const VERSIONED: Array<[table: string, owner: 'user_id' | 'subscription']> = [
  ['price_changes', 'subscription'],
  ['payment_entries', 'user_id'],
  ['budgets', 'user_id'],
];

/** Price history, the payment ledger and budgets; each moves its owner's data version (see data_versions). */
export class Migration20261125085540_ledger_and_budgets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "budgets" ("id" serial primary key, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "updated_at" timestamp(6) null, "user_id" int not null, "category_id" int null, "amount" numeric(14,2) not null);`,
    );
    this.addSql(
      `create unique index "budgets_user_category_unique" on "budgets" ("user_id", coalesce("category_id", 0));`,
    );

    this.addSql(
      `create table "price_changes" ("id" serial primary key, "subscription_id" int not null, "effective_from" date not null, "price" numeric(14,2) not null, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text));`,
    );
    this.addSql(
      `alter table "price_changes" add constraint "price_changes_subscription_id_effective_from_unique" unique ("subscription_id", "effective_from");`,
    );

    this.addSql(
      `create table "payment_entries" ("id" serial primary key, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "updated_at" timestamp(6) null, "user_id" int not null, "subscription_id" int not null, "due_date" date not null, "expected_amount" numeric(14,2) not null, "currency" varchar(3) not null, "status" text check ("status" in ('pending', 'paid', 'skipped')) not null default 'pending', "paid_amount" numeric(14,2) null, "paid_on" date null, "note" text null);`,
    );
    this.addSql(`create index "payment_entries_user_id_due_date_index" on "payment_entries" ("user_id", "due_date");`);
    this.addSql(
      `alter table "payment_entries" add constraint "payment_entries_subscription_id_due_date_unique" unique ("subscription_id", "due_date");`,
    );

    this.addSql(
      `alter table "budgets" add constraint "budgets_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "budgets" add constraint "budgets_category_id_foreign" foreign key ("category_id") references "product_categories" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "price_changes" add constraint "price_changes_subscription_id_foreign" foreign key ("subscription_id") references "subscriptions" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "payment_entries" add constraint "payment_entries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "payment_entries" add constraint "payment_entries_subscription_id_foreign" foreign key ("subscription_id") references "subscriptions" ("id") on update cascade on delete cascade;`,
    );

    for (const [table, owner] of VERSIONED) {
      for (const [event, rows] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ]) {
        this.addSql(
          `create trigger "${table}_${event}_data_versions" after ${event} on "${table}" referencing ${rows} table as "changed_rows" for each statement execute function "bump_data_versions"('${owner}');`,
        );
      }
    }
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "budgets" cascade;`);

    this.addSql(`drop table if exists "price_changes" cascade;`);

    this.addSql(`drop table if exists "payment_entries" cascade;`);
  }
}
