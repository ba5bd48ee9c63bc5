import { Migration } from '@mikro-orm/migrations';

/**
 * The list's default order (payment_date, then id) over live records straight from one index, so a page of
 * 100 is read without sorting the user's records.
 */
export class Migration20261122160000_list_order_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "subscriptions_user_live_payment_date" on "subscriptions" ("user_id", "payment_date", "id") where "deleted_at" is null;`,
    );
    this.addSql(`drop index if exists "subscriptions_user_payment_date";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "subscriptions_user_payment_date" on "subscriptions" ("user_id", "payment_date");`);
    this.addSql(`drop index if exists "subscriptions_user_live_payment_date";`);
  }
}
