import { Migration } from '@mikro-orm/migrations';

/** An Idempotency-Key remembers which request it was first used for, so another request under it is refused. */
export class Migration20261123120000_idempotency_fingerprint extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "inbound_idempotency_keys" add column "fingerprint" varchar(64) not null default '';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "inbound_idempotency_keys" drop column "fingerprint";`);
  }
}
