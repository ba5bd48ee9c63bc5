import { Migration } from '@mikro-orm/migrations';

/**
 * Logos served by the service itself (docs/logos.md): the images, each catalogue product's one fetch, and the
 * logo a product or record shows.
 */
export class Migration20261128100000_logos extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "logos" ("hash" varchar(32) not null, "bytes" bytea not null, "created_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), constraint "logos_pkey" primary key ("hash"));`,
    );
    this.addSql(
      `create table "logo_fetches" ("product_id" int not null, "tried_at" timestamp(6) not null default (now() AT TIME ZONE 'utc'::text), "error" text null, constraint "logo_fetches_pkey" primary key ("product_id"));`,
    );
    this.addSql(
      `alter table "logo_fetches" add constraint "logo_fetches_product_id_foreign" foreign key ("product_id") references "products" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`alter table "products" add column "logo_hash" varchar(32) null;`);
    this.addSql(`alter table "subscriptions" add column "logo_hash" varchar(32) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "subscriptions" drop column "logo_hash";`);
    this.addSql(`alter table "products" drop column "logo_hash";`);
    this.addSql(`drop table if exists "logo_fetches";`);
    this.addSql(`drop table if exists "logos";`);
  }
}
