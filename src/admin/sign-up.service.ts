import { normaliseEmail } from '../auth/email';
import { sha256Hex } from '../auth/secrets';
import type { SignUpGate } from '../auth/sign-up-gate';
import type { Caller } from '../platform/caller';
import type { Config } from '../platform/config';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import type { AdminAccess } from './admin-access';
import { AuditAction, type AuditLog } from './audit.service';
import type { InstanceSettingsRepository } from './instance-settings.repository';
import type { InvitationRepository } from './invitation.repository';

/** Who may sign up: anyone, those with an invitation, or nobody (accounts are then made with the CLI). */
export const SignUpMode = { OPEN: 'OPEN', INVITE_ONLY: 'INVITE_ONLY', CLOSED: 'CLOSED' } as const;
export type SignUpMode = (typeof SignUpMode)[keyof typeof SignUpMode];

const MODE_SETTING = 'sign_up_mode';

/** The sign-up mode (set by an admin at run time, ALLOW_SIGNUP until then) and the gate it keeps. */
export class SignUpService implements SignUpGate {
  constructor(
    private readonly transactions: Transactions,
    private readonly settings: InstanceSettingsRepository,
    private readonly invitations: InvitationRepository,
    private readonly access: AdminAccess,
    private readonly audit: AuditLog,
    private readonly config: Pick<Config, 'allowSignup'>,
  ) {}

  /** The mode in force: the admin's, else OPEN or CLOSED as ALLOW_SIGNUP says. */
  async mode(): Promise<SignUpMode> {
    const stored = await this.settings.get(MODE_SETTING);
    if (stored && Object.hasOwn(SignUpMode, stored)) return stored as SignUpMode;
    return this.config.allowSignup ? SignUpMode.OPEN : SignUpMode.CLOSED;
  }

  async setMode(caller: Caller, mode: SignUpMode): Promise<SignUpMode> {
    const actor = await this.access.require(caller);
    if (!Object.hasOwn(SignUpMode, mode)) throw AppError.field('mode', 'The mode must be OPEN, INVITE_ONLY or CLOSED.');
    await this.transactions.transaction(async () => {
      const previous = await this.mode();
      await this.settings.set(MODE_SETTING, mode);
      await this.audit.record(
        actor,
        AuditAction.SIGN_UP_MODE_SET,
        { id: null, email: null },
        { from: previous, to: mode },
      );
    });
    return mode;
  }

  /**
   * Closed: refused. Invite-only: a usable invitation code is needed (one for an e-mail address serves that
   * address only). Open: a code given is checked and used all the same. Every unusable code gets one answer,
   * whatever made it so.
   */
  async admit<T extends { id: number }>(email: string, code: string | null, create: () => Promise<T>): Promise<T> {
    return this.transactions.transaction(async () => {
      const mode = await this.mode();
      if (mode === SignUpMode.CLOSED) throw new AppError('FORBIDDEN', 'Sign-up is closed on this server');
      const given = code?.trim() ?? '';
      if (given === '') {
        if (mode === SignUpMode.INVITE_ONLY)
          throw new AppError('FORBIDDEN', 'Sign-up on this server needs an invitation');
        return create();
      }
      const invitation = await this.invitations.lockUsable(sha256Hex(given));
      if (!invitation || (invitation.email !== null && invitation.email !== normaliseEmail(email)))
        throw AppError.field(
          'invitationCode',
          'This invitation code cannot be used: it may have expired, been used or revoked.',
        );
      const user = await create();
      await this.invitations.markUsed(invitation.id, user.id);
      return user;
    });
  }
}
