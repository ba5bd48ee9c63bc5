import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

import { randomSecret, sha256Hex } from '../auth/secrets';
import type { Caller } from '../platform/caller';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError } from '../platform/errors';
import { idempotencyKeyRepository } from './idempotency-key.repository';
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

  /**
   * Runs an inbound request once per (token, Idempotency-Key), in one transaction with its key: the key is
   * claimed first (a concurrent request with the same key waits for this one to commit, then gets its
   * answer), the work's writes join the transaction, and the answer is stored with them. A key used before
   * for another request (other event or body: `fingerprint`) is refused. When the work throws (a 5xx),
   * everything rolls back, key included, so the request may be sent again.
   */
  async once(
    tokenId: number,
    key: string,
    fingerprint: string,
    work: () => Promise<StoredAnswer>,
  ): Promise<StoredAnswer> {
    return this.orm.em.transactional(async (em) => {
      // A key older than the keeping time is free again.
      await idempotencyKeyRepository.expire(em, tokenId, key, IDEMPOTENCY_KEEP_HOURS);
      if (!(await idempotencyKeyRepository.claim(em, tokenId, key, fingerprint))) {
        const stored = await idempotencyKeyRepository.stored(em, tokenId, key);
        if (stored.fingerprint !== fingerprint) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another request', {
            'Idempotency-Key': [
              'The Idempotency-Key was used for another request (another event or body); use a new key.',
            ],
          });
        }
        return { status: stored.status_code, body: stored.body };
      }
      const answer = await work();
      await idempotencyKeyRepository.storeAnswer(em, tokenId, key, answer);
      await idempotencyKeyRepository.dropOlderThan(em, IDEMPOTENCY_KEEP_HOURS * 2);
      return answer;
    });
  }
}
