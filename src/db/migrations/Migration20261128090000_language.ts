import { Migration } from '@mikro-orm/migrations';

/** The dashboard's language for a user: the browser's until they choose one. */
export class Migration20261128090000_language extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" add column "language" varchar(10) not null default 'browser';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop column "language";`);
  }
}
