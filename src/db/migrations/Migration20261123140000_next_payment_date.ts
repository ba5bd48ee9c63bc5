import { Migration } from '@mikro-orm/migrations';

/**
 * Each record keeps its next payment date, indexed with its owner and status, so upcoming is a range scan.
 * Existing rows start unknown (null): reads treat them as possibly due, and the sweep fills them in.
 */
export class Migration20261123140000_next_payment_date extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "subscriptions" add column "next_payment_date" date null;`);
    this.addSql(
      `create index "subscriptions_user_status_next_payment" on "subscriptions" ("user_id", "status", "next_payment_date");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "subscriptions_user_status_next_payment";`);
    this.addSql(`alter table "subscriptions" drop column "next_payment_date";`);
  }
}
