import { Migration } from '@mikro-orm/migrations';

/** Budget warnings: the alert definition whose channels warn, the month last warned of, and when the sweep last checked. */
export class Migration20261125103222_budget_warnings extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "budgets" add column "alert_id" int null, add column "warned_month" varchar(7) null, add column "checked_at" timestamp(6) null;`,
    );
    this.addSql(
      `alter table "budgets" add constraint "budgets_alert_id_foreign" foreign key ("alert_id") references "alerts" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "budgets" drop constraint "budgets_alert_id_foreign";`);
    this.addSql(`alter table "budgets" drop column "alert_id", drop column "warned_month", drop column "checked_at";`);
  }
}
