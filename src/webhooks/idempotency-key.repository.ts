import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';

export interface StoredKey {
  status_code: number;
  body: unknown;
  fingerprint: string;
}

/** The one door to inbound_idempotency_keys; every statement runs on the caller's transaction. */
export class IdempotencyKeyRepository {
  constructor(private readonly db: DataSource) {}

  /** Frees the token's key if it is older than `keepHours`. */
  async expire(tokenId: number, key: string, keepHours: number): Promise<void> {
    await this.db.run(
      sql`delete from "inbound_idempotency_keys" where "token_id" = ${tokenId} and "key" = ${key} and "created_at" < (now() at time zone 'utc') - make_interval(hours => ${keepHours})`,
    );
  }

  /** Claims the key for this request: false when it is taken (after waiting for the transaction that took it). */
  async claim(tokenId: number, key: string, fingerprint: string): Promise<boolean> {
    const claimed = await this.db.rows(
      sql`insert into "inbound_idempotency_keys" ("token_id", "key", "fingerprint", "status_code", "body") values (${tokenId}, ${key}, ${fingerprint}, 0, 'null')
       on conflict ("token_id", "key") do nothing returning "key"`,
    );
    return claimed.length > 0;
  }

  async stored(tokenId: number, key: string): Promise<StoredKey> {
    const [stored] = await this.db.rows<StoredKey>(
      sql`select "status_code", "body", "fingerprint" from "inbound_idempotency_keys" where "token_id" = ${tokenId} and "key" = ${key}`,
    );
    return stored;
  }

  async storeAnswer(tokenId: number, key: string, answer: { status: number; body: unknown }): Promise<void> {
    await this.db.run(
      sql`update "inbound_idempotency_keys" set "status_code" = ${answer.status}, "body" = ${JSON.stringify(answer.body)} where "token_id" = ${tokenId} and "key" = ${key}`,
    );
  }

  /** Drops every key older than `hours`. */
  async dropOlderThan(hours: number): Promise<void> {
    await this.db.run(
      sql`delete from "inbound_idempotency_keys" where "created_at" < (now() at time zone 'utc') - make_interval(hours => ${hours})`,
    );
  }
}
