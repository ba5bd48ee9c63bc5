import type { Caller } from '../platform/caller';
import type { Config } from '../platform/config';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError, type FieldErrors, refuseFieldErrors } from '../platform/errors';
import { hasLength } from '../platform/objects';
import { type AccessToken, TokenKind, type TokenScope } from './access-token.entity';
import type { AccessTokenRepository } from './access-token.repository';
import { formatAccessToken, randomSecret, sha256Hex } from './secrets';

const DAY_MS = 86_400_000;

/** The longest a personal token may be made to live: ten years. */
export const MAX_TOKEN_DAYS = 3650;

export interface NewPersonalToken {
  name: string;
  scope: TokenScope;
  /** A fixed expiry (an instant in the future), or `expiresInDays` from now; neither: it never expires. */
  expiresAt?: Date | null;
  expiresInDays?: number | null;
}

/**
 * A user's personal access tokens (named, scoped, with an optional fixed expiry) and sign-in sessions: listed
 * and revoked by their owner. Both are rows of access_tokens, so the REST facade and GraphQL take either as a
 * Bearer token, and a revocation takes effect on the next request in every process.
 */
export class PersonalTokenService {
  constructor(
    private readonly tokens: AccessTokenRepository,
    private readonly config: Pick<Config, 'tokenTtlDays'>,
  ) {}

  /**
   * A new personal token and its string, shown this once. Only a sign-in (or the shell) makes one: a leaked
   * personal token cannot make successors that outlive its own revocation.
   */
  async create(caller: Caller, input: NewPersonalToken): Promise<{ token: AccessToken; secret: string }> {
    if (caller.personal) {
      throw new AppError(
        'FORBIDDEN',
        'A personal access token cannot make personal access tokens; sign in to make one.',
      );
    }
    const name = input.name.trim();
    const problems: FieldErrors = {};
    if (!hasLength(name, 1, 100)) problems.name = ['The name must be from 1 to 100 characters.'];
    const expiresAt = expiryOf(input, problems);
    refuseFieldErrors(problems);
    const secret = randomSecret(30);
    const token = await this.tokens.issue(caller.userId, sha256Hex(secret), {
      kind: TokenKind.PERSONAL,
      name,
      scope: input.scope,
      expiresAt,
    });
    return { token, secret: formatAccessToken(token.id, secret) };
  }

  /** The user's personal tokens not revoked, newest first (expired ones too: their expiry shows why they fail). */
  listPersonal(caller: Caller): Promise<AccessToken[]> {
    return this.tokens.ofUser(caller.userId, TokenKind.PERSONAL, 0);
  }

  /** Revokes one of the user's personal tokens: it gets 401 from its next request on. */
  async revokePersonal(caller: Caller, id: number): Promise<AccessToken> {
    const token = await this.tokens.revoke(caller.userId, id, TokenKind.PERSONAL);
    if (!token) throw AppError.notFound('Personal access token');
    return token;
  }

  /** The user's live sign-in sessions, newest first. */
  sessions(caller: Caller): Promise<AccessToken[]> {
    return this.tokens.ofUser(caller.userId, TokenKind.SESSION, this.config.tokenTtlDays);
  }

  /** Signs one of the user's sessions out (the caller's own too): it gets 401 from its next request on. */
  async revokeSession(caller: Caller, id: number): Promise<AccessToken> {
    const token = await this.tokens.revoke(caller.userId, id, TokenKind.SESSION);
    if (!token) throw AppError.notFound('Session');
    return token;
  }
}

/** The fixed expiry a new personal token asks for (UTC, as stored), or null; problems go to `problems`. */
function expiryOf(input: NewPersonalToken, problems: FieldErrors): string | null {
  const expiresAt = input.expiresAt ?? null;
  const days = input.expiresInDays ?? null;
  if (expiresAt !== null && days !== null) {
    problems.expiresAt = ['Give an expiry time or a number of days, not both.'];
    return null;
  }
  if (days !== null) {
    if (Number.isInteger(days) && days >= 1 && days <= MAX_TOKEN_DAYS)
      return utcTimestamp(new Date(Date.now() + days * DAY_MS));
    problems.expiresInDays = [`The days must be a whole number from 1 to ${MAX_TOKEN_DAYS}.`];
    return null;
  }
  if (expiresAt === null) return null;
  if (expiresAt.getTime() > Date.now() && expiresAt.getTime() <= Date.now() + MAX_TOKEN_DAYS * DAY_MS)
    return utcTimestamp(expiresAt);
  problems.expiresAt = [`The expiry must be in the future, at most ${MAX_TOKEN_DAYS} days from now.`];
  return null;
}
