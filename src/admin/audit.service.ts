import type { Caller } from '../platform/caller';
import type { Actor, AdminAccess } from './admin-access';
import type { AuditEntryRow, AuditRepository } from './audit.repository';

/** What an admin did: the actions the audit log names. */
export const AuditAction = {
  ACCOUNT_DISABLED: 'ACCOUNT_DISABLED',
  ACCOUNT_ENABLED: 'ACCOUNT_ENABLED',
  ACCOUNT_DELETED: 'ACCOUNT_DELETED',
  ADMIN_GRANTED: 'ADMIN_GRANTED',
  INVITATION_CREATED: 'INVITATION_CREATED',
  INVITATION_REVOKED: 'INVITATION_REVOKED',
  SIGN_UP_MODE_SET: 'SIGN_UP_MODE_SET',
} as const;
export type AuditAction = (typeof AuditAction)[keyof typeof AuditAction];

/** What an action was done to: an account or an invitation (its id and e-mail), or the instance (none). */
export interface AuditTarget {
  id: number | null;
  email: string | null;
}

/** The audit log: written by every admin action in its own transaction, read by admins, newest first. */
export class AuditLog {
  constructor(
    private readonly entries: AuditRepository,
    private readonly access: AdminAccess,
  ) {}

  /** Writes the entry of an action; call it inside the action's transaction, so both commit or neither. */
  async record(actor: Actor, action: AuditAction, target: AuditTarget, details: Record<string, unknown> = {}) {
    await this.entries.write({
      actorId: actor.id,
      actorEmail: actor.email,
      action,
      targetId: target.id,
      targetEmail: target.email,
      details,
    });
  }

  async page(caller: Caller, offset: number, limit: number): Promise<{ rows: AuditEntryRow[]; total: number }> {
    await this.access.require(caller);
    return this.entries.page(offset, limit);
  }

  /** One entry, for an admin; null for anyone else. */
  async entry(caller: Caller, id: number): Promise<AuditEntryRow | null> {
    return (await this.access.isAdmin(caller)) ? this.entries.byId(id) : null;
  }
}
