import { Migration } from '@mikro-orm/migrations';

/**
 * Two-factor authentication (TOTP, RFC 6238). `two_factor` holds a user's secret, sealed with
 * NOTIFY_SECRET_KEY (the server must read it back to check codes, so it cannot be hashed); `enabled_at` null
 * is an enrolment not yet confirmed with a code. `last_time_step` is the 30-second step of the last code
 * accepted: a code is good once, and the conditional update that moves it is what makes two concurrent uses
 * of one code end with one success. Recovery codes are kept as SHA-256 hashes (each carries 80 random bits,
 * so a hash cannot be searched back to its code); `used_at` set: spent.
 */
export class Migration20261127110000_two_factor extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "two_factor" (
      "user_id" int primary key references "users" ("id") on delete cascade,
      "sealed_secret" text not null,
      "enabled_at" timestamp null,
      "last_time_step" bigint null,
      "created_at" timestamp not null default (now() at time zone 'utc'));`);
    this.addSql(`create table "two_factor_recovery_codes" (
      "id" serial primary key,
      "user_id" int not null references "users" ("id") on delete cascade,
      "code_hash" char(64) not null,
      "used_at" timestamp null,
      constraint "two_factor_recovery_codes_code" unique ("user_id", "code_hash"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "two_factor_recovery_codes";`);
    this.addSql(`drop table if exists "two_factor";`);
  }
}
