import { Migration } from '@mikro-orm/migrations';

/**
 * Personal access tokens and sessions (issue 44) share the access_tokens table: one lookup, one liveness
 * check and one revocation path for every Bearer token. Existing rows are sign-ins, read-write.
 */
export class Migration20261127120000_token_kinds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "access_tokens"
      add column "kind" text check ("kind" in ('SESSION', 'PERSONAL')) not null default 'SESSION',
      add column "name" varchar(100) null,
      add column "scope" text check ("scope" in ('READ_ONLY', 'READ_WRITE')) not null default 'READ_WRITE',
      add column "device" varchar(255) null,
      add column "last_used_at" timestamp(6) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "access_tokens"
      drop column "kind", drop column "name", drop column "scope", drop column "device", drop column "last_used_at";`);
  }
}
