import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError, type FieldErrors, refuseFieldErrors } from '../platform/errors';
import type { Logger } from '../platform/logger';
import type { AccessTokenRepository } from './access-token.repository';
import { normaliseEmail } from './email';
import type { LoginThrottle } from './login-throttle';
import { hashPassword, passwordProblem, verifyPassword } from './password';
import type { PasswordResetRepository } from './password-reset.repository';
import type { ResetRequestThrottle } from './reset-throttle';
import { randomSecret, sha256Hex } from './secrets';
import type { User } from './user.entity';
import type { UserRepository } from './user.repository';

/** How long a reset link works. */
export const RESET_LINK_MINUTES = 30;

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
  /** Keep the account's other tokens; by default all but the caller's are revoked. */
  keepOtherSessions: boolean;
}

/** The account's tokens a new password leaves live: all of them, the one given, or none (null). */
type KeptTokens = 'all' | number | null;

export type SendMail = (to: string, subject: string, text: string) => Promise<unknown>;

/** Changing a password, and resetting a forgotten one with a single-use link (mailed, or printed by the CLI). */
export class PasswordService {
  constructor(
    private readonly data: Transactions,
    private readonly users: UserRepository,
    private readonly tokens: AccessTokenRepository,
    private readonly resets: PasswordResetRepository,
    private readonly throttles: { login: LoginThrottle; resetRequests: ResetRequestThrottle },
    /** null: no SMTP_URL, so no link is mailed (the CLI prints one). */
    private readonly mail: SendMail | null,
    private readonly logger: Logger,
    private readonly baseUrl: string,
    private readonly clock: () => Date,
  ) {}

  /**
   * Sets a new password once the current one is given; a wrong one counts as a failed login of the account's
   * e-mail (one budget for guessing, whichever way). Revokes the account's other tokens unless asked not to.
   */
  async change(caller: Caller, input: PasswordChange, address: string): Promise<User> {
    const user = await this.users.withPasswordHashById(caller.userId);
    if (!user) throw AppError.unauthenticated();
    const failures = await this.throttles.login.claimAttempt(user.email, address);
    const problems: FieldErrors = {};
    const valid = await verifyPassword(user.passwordHash, input.currentPassword);
    if (!valid) problems.currentPassword = ['The current password is wrong.'];
    const newInvalid = passwordProblem(input.newPassword);
    if (newInvalid) problems.newPassword = [newInvalid];
    if (valid) await this.throttles.login.succeeded(user.email, address);
    else await this.throttles.login.failed(failures);
    refuseFieldErrors(problems);
    const kept = input.keepOtherSessions ? 'all' : caller.tokenId;
    await this.setPassword(input.newPassword, kept, () => Promise.resolve(user.id));
    return user;
  }

  /**
   * Mails a reset link when an active account has this address and SMTP is configured. The answer is the same
   * either way, and so is the work until the mail, which is sent after the answer.
   */
  async requestReset(presentedEmail: string, address: string): Promise<void> {
    const email = normaliseEmail(presentedEmail);
    await this.throttles.resetRequests.claim(email, address);
    if (!this.mail) return;
    const secret = randomSecret();
    if (!(await this.createLink(email, secret))) return;
    const text =
      `Someone (you, we hope) asked to reset the password of your Subledger account ${email}. Choose a new one here:\n\n` +
      `${this.link(secret)}\n\nThe link works once, within ${RESET_LINK_MINUTES} minutes. If you did not ask, ignore this e-mail: your password stays as it is.`;
    this.mail(email, 'Reset your Subledger password', text).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'password reset e-mail failed'),
    );
  }

  /** A reset link for the operator to hand over (the CLI, when no e-mail goes out); NOT_FOUND without an active account. */
  async resetLinkFor(email: string): Promise<string> {
    const secret = randomSecret();
    if (!(await this.createLink(normaliseEmail(email), secret))) throw AppError.notFound('Active account');
    return this.link(secret);
  }

  /**
   * Sets the password of a live link's account, uses the link up and revokes every token of the account (whoever
   * held one may have known the old password). It signs nobody in: the user logs in with the new password.
   */
  async reset(token: string, newPassword: string): Promise<User> {
    const problem = passwordProblem(newPassword);
    if (problem) throw AppError.field('newPassword', problem);
    const userId = await this.setPassword(newPassword, null, async () => {
      const used = await this.resets.use(sha256Hex(token), this.now());
      if (used === null)
        throw AppError.field('token', 'This reset link is unknown, expired or used already; ask for a new one.');
      return used;
    });
    return this.users.existing(userId);
  }

  /**
   * Hashes the new password, then in one transaction: the user `claim` answers (it may refuse), their password
   * set, their tokens revoked but those kept, their unused reset links voided.
   */
  private async setPassword(password: string, kept: KeptTokens, claim: () => Promise<number>): Promise<number> {
    const hash = await hashPassword(password);
    return this.data.transaction(async () => {
      const userId = await claim();
      await this.users.setPasswordHash(userId, hash);
      if (kept !== 'all') await this.tokens.revokeAllOf(userId, kept);
      await this.resets.voidUnused(userId, this.now());
      return userId;
    });
  }

  private createLink(email: string, secret: string): Promise<boolean> {
    const expiresAt = new Date(this.clock().getTime() + RESET_LINK_MINUTES * 60_000);
    return this.resets.createForEmail(email, sha256Hex(secret), this.now(), utcTimestamp(expiresAt));
  }

  private link(secret: string): string {
    return `${this.baseUrl}/reset-password?token=${secret}`;
  }

  private now(): string {
    return utcTimestamp(this.clock());
  }
}
