import { Migration } from '@mikro-orm/migrations';

/**
 * The original's codes (DESIGN "Names and codes"): alerts' alert_condition, alert_type and alert_subs_type
 * meant something else here, so existing definitions are mapped to the codes that keep their meaning; type 4
 * (Revenue, not offered by the original) becomes 1; alert_id may be empty (0 on the wire: no alert); payment
 * modes gain the original payment method's fields; tokens may never expire (TOKEN_TTL_DAYS=0).
 */
export class Migration20261123100000_original_codes extends Migration {
  override async up(): Promise<void> {
    // condition: 1 payment → 2 before due date, 2 refund → 3 before refund date, 3 both → 1 All.
    // type: 1 e-mail → 2, 2 browser → 3, 3 webhook → 4, 4 every channel → 1 All.
    // subs type: 1 subscriptions → 1 Subscription, 2 lifetime → 3 Lifetime, 3 all → 1 (no code means "all").
    this.addSql(`update "alerts" set
      "alert_condition" = case "alert_condition" when 1 then 2 when 2 then 3 when 3 then 1 else "alert_condition" end,
      "alert_type" = case "alert_type" when 1 then 2 when 2 then 3 when 3 then 4 when 4 then 1 else "alert_type" end,
      "alert_subs_type" = case "alert_subs_type" when 2 then 3 when 3 then 1 else "alert_subs_type" end;`);
    this.addSql(`update "subscriptions" set "type" = 1 where "type" = 4;`);
    this.addSql(`update "subscriptions" set "pricing_type" = 1 where "pricing_type" = 4;`);
    this.addSql(`alter table "subscriptions" alter column "alert_id" drop not null;`);
    this.addSql(`alter table "access_tokens" alter column "expires_at" drop not null;`);
    this.addSql(
      `alter table "payment_modes" add column "payment_type" varchar(20) null, add column "description" text null, add column "expiry" date null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`update "access_tokens" set "expires_at" = '9999-12-31' where "expires_at" is null;`);
    this.addSql(`alter table "access_tokens" alter column "expires_at" set not null;`);
    this.addSql(
      `alter table "payment_modes" drop column "payment_type", drop column "description", drop column "expiry";`,
    );
    this.addSql(`update "subscriptions" set "alert_id" = 1 where "alert_id" is null;`);
    this.addSql(`alter table "subscriptions" alter column "alert_id" set not null;`);
    this.addSql(`update "alerts" set
      "alert_condition" = case "alert_condition" when 2 then 1 when 3 then 2 when 1 then 3 else "alert_condition" end,
      "alert_type" = case "alert_type" when 2 then 1 when 3 then 2 when 4 then 3 when 1 then 4 else "alert_type" end,
      "alert_subs_type" = case "alert_subs_type" when 3 then 2 else "alert_subs_type" end;`);
  }
}
