import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Caller } from '../auth/caller';
import { randomSecret, sha256Hex } from '../auth/secrets';
import { utcTimestamp } from '../db/timestamps';
import { AppError } from '../errors';
import { InboundTokenKind, InboundWebhookToken } from './inbound-token.entity';

/** Idempotency keys are answered from storage for at least this long (and dropped a day after that). */
export const IDEMPOTENCY_KEEP_HOURS = 48;

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** Tokens that address the inbound webhook path. Only their SHA-256 is kept; the token is shown once. */
export class InboundTokenService {
  constructor(private readonly orm: MikroORM<PostgreSqlDriver>) {}

  async create(caller: Caller, kind: InboundTokenKind): Promise<{ token: InboundWebhookToken; plaintext: string }> {
    const em = this.orm.em.fork();
    const plaintext = `whin_${randomSecret(30)}`;
    const token = em.create(InboundWebhookToken, { user: caller.userId, kind, tokenHash: sha256Hex(plaintext) });
    await em.flush();
    return { token, plaintext };
  }

  async list(caller: Caller): Promise<InboundWebhookToken[]> {
    return this.orm.em.fork().find(InboundWebhookToken, { user: caller.userId }, { orderBy: { id: 'asc' } });
  }

  async revoke(caller: Caller, id: number): Promise<InboundWebhookToken> {
    const em = this.orm.em.fork();
    const token = await em.findOne(InboundWebhookToken, { id, user: caller.userId });
    if (!token) throw AppError.notFound('Inbound webhook token');
    token.revokedAt ??= utcTimestamp();
    await em.flush();
    return token;
  }

  /** The live token a path segment names (looked up by its hash), or null for an unknown or revoked one. */
  async resolve(plaintext: string): Promise<InboundWebhookToken | null> {
    if (plaintext.length > 200) return null;
    const em = this.orm.em.fork();
    const token = await em.findOne(InboundWebhookToken, { tokenHash: sha256Hex(plaintext), revokedAt: null });
    if (token) {
      token.lastUsedAt = utcTimestamp();
      await em.flush();
    }
    return token;
  }

  async storedAnswer(tokenId: number, key: string): Promise<StoredAnswer | null> {
    const [row] = await this.orm.em.getConnection().execute<{ status_code: number; body: unknown }[]>(
      `select "status_code", "body" from "inbound_idempotency_keys"
        where "token_id" = ? and "key" = ? and "created_at" > (now() at time zone 'utc') - make_interval(hours => ?)`,
      [tokenId, key, IDEMPOTENCY_KEEP_HOURS],
    );
    return row ? { status: row.status_code, body: row.body } : null;
  }

  async storeAnswer(tokenId: number, key: string, answer: StoredAnswer): Promise<void> {
    const connection = this.orm.em.getConnection();
    await connection.execute(
      `insert into "inbound_idempotency_keys" ("token_id", "key", "status_code", "body") values (?, ?, ?, ?)
       on conflict ("token_id", "key") do update set "status_code" = excluded."status_code", "body" = excluded."body", "created_at" = excluded."created_at"`,
      [tokenId, key, answer.status, JSON.stringify(answer.body)],
      'run',
    );
    await connection.execute(
      `delete from "inbound_idempotency_keys" where "created_at" < (now() at time zone 'utc') - make_interval(hours => ?)`,
      [IDEMPOTENCY_KEEP_HOURS * 2],
      'run',
    );
  }
}
