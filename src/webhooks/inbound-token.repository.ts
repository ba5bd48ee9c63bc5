import type { DataSource } from '../platform/db/data-source';
import { utcTimestamp } from '../platform/db/timestamps';
import { type InboundTokenKind, InboundWebhookToken } from './inbound-token.entity';

/** The one door to inbound_webhook_tokens; a token is found by its SHA-256, never by the token itself. */
export class InboundTokenRepository {
  constructor(private readonly db: DataSource) {}

  async add(userId: number, kind: InboundTokenKind, tokenHash: string): Promise<InboundWebhookToken> {
    return this.db.insert(InboundWebhookToken, { user: userId, kind, tokenHash });
  }

  /** The user's tokens, in the order they were made. */
  list(userId: number): Promise<InboundWebhookToken[]> {
    return this.db.em().find(InboundWebhookToken, { user: userId }, { orderBy: { id: 'asc' } });
  }

  /** Revokes one of the user's tokens (one revoked before keeps its time); null when there is none. */
  async revoke(userId: number, id: number): Promise<InboundWebhookToken | null> {
    const em = this.db.em();
    const token = await em.findOne(InboundWebhookToken, { id, user: userId });
    if (!token) return null;
    token.revokedAt ??= utcTimestamp();
    await em.flush();
    return token;
  }

  /** The live token of this hash, noted as used now; null for an unknown or revoked one. */
  async use(tokenHash: string): Promise<InboundWebhookToken | null> {
    const em = this.db.em();
    const token = await em.findOne(InboundWebhookToken, { tokenHash, revokedAt: null });
    if (token) {
      token.lastUsedAt = utcTimestamp();
      await em.flush();
    }
    return token;
  }
}
