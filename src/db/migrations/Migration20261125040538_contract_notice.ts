import { Migration } from '@mikro-orm/migrations';

/** A contract's notice period, and reminders of the last day to cancel (kind contract_notice). */
export class Migration20261125040538_contract_notice extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "subscriptions" add column "contract_notice_days" int null;`);
    this.addSql(`alter table "reminders" drop constraint "reminders_kind_check";`);
    this.addSql(
      `alter table "reminders" add constraint "reminders_kind_check" check ("kind" in ('payment', 'refund', 'contract_notice'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "reminders" where "kind" = 'contract_notice';`);
    this.addSql(`alter table "reminders" drop constraint "reminders_kind_check";`);
    this.addSql(
      `alter table "reminders" add constraint "reminders_kind_check" check ("kind" in ('payment', 'refund'));`,
    );
    this.addSql(`alter table "subscriptions" drop column "contract_notice_days";`);
  }
}
