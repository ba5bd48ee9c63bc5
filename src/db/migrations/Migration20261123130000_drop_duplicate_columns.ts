import { Migration } from '@mikro-orm/migrations';

/**
 * The original keeps three columns of a record that always hold another's value (pricing_type is type,
 * currency_code is price_type, url is homepage). They are dropped; the presenters emit them from the kept ones.
 */
export class Migration20261123130000_drop_duplicate_columns extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "subscriptions" drop column "pricing_type", drop column "currency_code", drop column "url";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "subscriptions" add column "pricing_type" smallint null, add column "currency_code" varchar(3) null, add column "url" text null;`,
    );
    this.addSql(
      `update "subscriptions" set "pricing_type" = "type", "currency_code" = "price_type", "url" = "homepage";`,
    );
  }
}
