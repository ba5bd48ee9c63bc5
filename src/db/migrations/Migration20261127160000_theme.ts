import { Migration } from '@mikro-orm/migrations';

/** How the dashboard looks for a user: as their device is set until they choose light or dark. */
export class Migration20261127160000_theme extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" add column "theme" varchar(10) not null default 'system';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop column "theme";`);
  }
}
