import { Migration } from '@mikro-orm/migrations';

/** The day a user's weeks start on in calendars (an ISO weekday number), Monday until they choose. */
export class Migration20261127150000_week_start extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "users" add column "week_start" smallint not null default 1;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop column "week_start";`);
  }
}
