import { Migration } from '@mikro-orm/migrations';

/**
 * A user's private products are unique by name, so concurrent creates naming one new product find or create
 * the same row (INSERT … ON CONFLICT). Duplicates made before the key existed are merged into the oldest.
 */
export class Migration20261123110000_find_or_create_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`with "keep" as (
        select "id", min("id") over (partition by "owner_id", "product_name") as "first" from "products" where "owner_id" is not null)
      update "subscriptions" s set "product_id" = k."first" from "keep" k where s."product_id" = k."id" and k."id" <> k."first";`);
    this.addSql(`delete from "products" p using "products" q
      where p."owner_id" is not null and p."owner_id" = q."owner_id" and p."product_name" = q."product_name" and p."id" > q."id";`);
    this.addSql(
      `create unique index "products_owner_name_unique" on "products" ("owner_id", "product_name") where "owner_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "products_owner_name_unique";`);
  }
}
