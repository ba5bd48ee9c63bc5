import { Migration } from '@mikro-orm/migrations';

export class Migration20261125034419_rates_refreshes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "rates_refreshes" ("id" int not null, "source_url" text not null, "attempted_at" timestamp(6) not null, "succeeded_at" timestamp(6) null, "error" text null, constraint "rates_refreshes_pkey" primary key ("id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rates_refreshes" cascade;`);
  }
}
