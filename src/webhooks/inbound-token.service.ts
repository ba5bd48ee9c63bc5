import { randomSecret, sha256Hex } from '../auth/secrets';
import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import type { IdempotencyKeyRepository } from './idempotency-key.repository';
import type { InboundTokenKind, InboundWebhookToken } from './inbound-token.entity';
import type { InboundTokenRepository } from './inbound-token.repository';

/** Idempotency keys are answered from storage for at least this long (and dropped a day after that). */
export const IDEMPOTENCY_KEEP_HOURS = 48;

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** Tokens that address the inbound webhook path. Only their SHA-256 is kept; the token is shown once. */
export class InboundTokenService {
  constructor(
    private readonly transactions: Transactions,
    private readonly tokens: InboundTokenRepository,
    private readonly keys: IdempotencyKeyRepository,
  ) {}

  async create(caller: Caller, kind: InboundTokenKind): Promise<{ token: InboundWebhookToken; plaintext: string }> {
    const plaintext = `whin_${randomSecret(30)}`;
    const token = await this.tokens.add(caller.userId, kind, sha256Hex(plaintext));
    return { token, plaintext };
  }

  async list(caller: Caller): Promise<InboundWebhookToken[]> {
    return this.tokens.list(caller.userId);
  }

  async revoke(caller: Caller, id: number): Promise<InboundWebhookToken> {
    const token = await this.tokens.revoke(caller.userId, id);
    if (!token) throw AppError.notFound('Inbound webhook token');
    return token;
  }

  /** The live token a path segment names (looked up by its hash), or null for an unknown or revoked one. */
  async resolve(plaintext: string): Promise<InboundWebhookToken | null> {
    if (plaintext.length > 200) return null;
    return this.tokens.use(sha256Hex(plaintext));
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
    return this.transactions.transaction(async () => {
      // A key older than the keeping time is free again.
      await this.keys.expire(tokenId, key, IDEMPOTENCY_KEEP_HOURS);
      if (!(await this.keys.claim(tokenId, key, fingerprint))) {
        const stored = await this.keys.stored(tokenId, key);
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
      await this.keys.storeAnswer(tokenId, key, answer);
      await this.keys.dropOlderThan(IDEMPOTENCY_KEEP_HOURS * 2);
      return answer;
    });
  }
}
