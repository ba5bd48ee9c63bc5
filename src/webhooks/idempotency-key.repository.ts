import type { EntityManager } from '@mikro-orm/postgresql';

import { rowsOf, run } from '../platform/db/statements';

export interface StoredKey {
  status_code: number;
  body: unknown;
  fingerprint: string;
}

/** The one door to inbound_idempotency_keys; every statement runs on the caller's transaction. */
export const idempotencyKeyRepository = {
  /** Frees the token's key if it is older than `keepHours`. */
  async expire(em: EntityManager, tokenId: number, key: string, keepHours: number): Promise<void> {
    await run(
      em,
      `delete from "inbound_idempotency_keys" where "token_id" = ? and "key" = ? and "created_at" < (now() at time zone 'utc') - make_interval(hours => ?)`,
      [tokenId, key, keepHours],
    );
  },

  /** Claims the key for this request: false when it is taken (after waiting for the transaction that took it). */
  async claim(em: EntityManager, tokenId: number, key: string, fingerprint: string): Promise<boolean> {
    const claimed = await rowsOf(
      em,
      `insert into "inbound_idempotency_keys" ("token_id", "key", "fingerprint", "status_code", "body") values (?, ?, ?, 0, 'null')
       on conflict ("token_id", "key") do nothing returning "key"`,
      [tokenId, key, fingerprint],
    );
    return claimed.length > 0;
  },

  async stored(em: EntityManager, tokenId: number, key: string): Promise<StoredKey> {
    const [stored] = await rowsOf<StoredKey>(
      em,
      `select "status_code", "body", "fingerprint" from "inbound_idempotency_keys" where "token_id" = ? and "key" = ?`,
      [tokenId, key],
    );
    return stored;
  },

  async storeAnswer(
    em: EntityManager,
    tokenId: number,
    key: string,
    answer: { status: number; body: unknown },
  ): Promise<void> {
    await run(
      em,
      `update "inbound_idempotency_keys" set "status_code" = ?, "body" = ? where "token_id" = ? and "key" = ?`,
      [answer.status, JSON.stringify(answer.body), tokenId, key],
    );
  },

  /** Drops every key older than `hours`. */
  async dropOlderThan(em: EntityManager, hours: number): Promise<void> {
    await run(
      em,
      `delete from "inbound_idempotency_keys" where "created_at" < (now() at time zone 'utc') - make_interval(hours => ?)`,
      [hours],
    );
  },
};
