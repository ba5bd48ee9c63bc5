import { emailProblem, normaliseEmail } from '../auth/email';
import { randomSecret, sha256Hex } from '../auth/secrets';
import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import type { AdminAccess } from './admin-access';
import { AuditAction, type AuditLog } from './audit.service';
import type { InvitationRepository, InvitationRow } from './invitation.repository';

/** How long an invitation can be used. */
export const INVITATION_DAYS = 7;

/** Sends an invitation e-mail (SMTP_URL); absent: the admin passes the link on. */
export type InvitationMail = (to: string, subject: string, text: string) => Promise<unknown>;

/** A new invitation: its code and link are answered this once (only the code's hash is kept). */
export interface NewInvitation {
  invitation: InvitationRow;
  code: string;
  link: string;
  emailed: boolean;
}

/** Invitations to sign up, made and revoked by admins. */
export class InvitationService {
  constructor(
    private readonly transactions: Transactions,
    private readonly invitations: InvitationRepository,
    private readonly access: AdminAccess,
    private readonly audit: AuditLog,
    private readonly baseUrl: string,
    private readonly mail: InvitationMail | null,
    private readonly logger: Logger,
  ) {}

  /** An invitation for anyone with the link, or for one e-mail address (mailed to it when SMTP is set up). */
  async create(caller: Caller, email: string | null): Promise<NewInvitation> {
    const actor = await this.access.require(caller);
    const address = email === null || email.trim() === '' ? null : normaliseEmail(email);
    const problem = address && emailProblem(address);
    if (problem) throw AppError.field('email', problem);
    const code = randomSecret(24);
    const invitation = await this.transactions.transaction(async () => {
      const made = await this.invitations.create(sha256Hex(code), address, actor.id!, INVITATION_DAYS);
      await this.audit.record(actor, AuditAction.INVITATION_CREATED, made, { expiresAt: made.expires_at });
      return made;
    });
    // In the fragment, which browsers never send: the code stays out of every request log.
    const link = `${this.baseUrl}/#invitation=${encodeURIComponent(code)}`;
    return { invitation, code, link, emailed: address !== null && (await this.send(address, link)) };
  }

  async page(caller: Caller, offset: number, limit: number): Promise<{ rows: InvitationRow[]; total: number }> {
    await this.access.require(caller);
    return this.invitations.page(offset, limit);
  }

  /** One invitation, for an admin; null for anyone else. */
  async invitation(caller: Caller, id: number): Promise<InvitationRow | null> {
    return (await this.access.isAdmin(caller)) ? this.invitations.byId(id) : null;
  }

  /** Revokes an invitation not used yet: its code no longer signs anyone up. */
  async revoke(caller: Caller, id: number): Promise<InvitationRow> {
    const actor = await this.access.require(caller);
    return this.transactions.transaction(async () => {
      const revoked = await this.invitations.revoke(id);
      if (!revoked) {
        if (!(await this.invitations.byId(id))) throw AppError.notFound('Invitation');
        throw new AppError('CONFLICT', 'The invitation was used or revoked already');
      }
      await this.audit.record(actor, AuditAction.INVITATION_REVOKED, revoked);
      return revoked;
    });
  }

  private async send(to: string, link: string): Promise<boolean> {
    if (!this.mail) return false;
    const text =
      `You are invited to sign up on Subledger. This link works once, for ${INVITATION_DAYS} days:\n\n${link}\n\n` +
      'Sign up with this e-mail address.';
    try {
      await this.mail(to, 'Your invitation to Subledger', text);
      return true;
    } catch (error) {
      this.logger.warn({ err: error }, 'sign-up invitation e-mail failed');
      return false;
    }
  }
}
