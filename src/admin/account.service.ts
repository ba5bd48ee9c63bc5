import type { AccessTokenRepository } from '../auth/access-token.repository';
import { normaliseEmail } from '../auth/email';
import { ADMIN_ROLE, DISABLED_STATUS } from '../auth/user.entity';
import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import type { AccountRepository, AccountRow } from './account.repository';
import { type Actor, type AdminAccess, forbidden, SHELL } from './admin-access';
import { AuditAction, type AuditLog } from './audit.service';

/** The admin's work on accounts: list, disable, enable, delete; and the CLI's naming of an admin. */
export class AccountAdminService {
  constructor(
    private readonly transactions: Transactions,
    private readonly accounts: AccountRepository,
    private readonly tokens: AccessTokenRepository,
    private readonly access: AdminAccess,
    private readonly audit: AuditLog,
  ) {}

  async page(caller: Caller, offset: number, limit: number): Promise<{ rows: AccountRow[]; total: number }> {
    await this.access.require(caller);
    return this.accounts.page(offset, limit);
  }

  /** Whether this account is an active admin (the dashboard shows the admin's screens to it). */
  async isAdmin(userId: number): Promise<boolean> {
    return (await this.accounts.activeAdmin(userId)) !== null;
  }

  /** One account, for an admin; null for anyone else. */
  async account(caller: Caller, id: number): Promise<AccountRow | null> {
    return (await this.access.isAdmin(caller)) ? this.accounts.byId(id) : null;
  }

  /** Shuts an account out: it cannot sign in, and every token of it gets 401 from its next request. */
  async disable(caller: Caller, id: number): Promise<AccountRow> {
    const actor = await this.access.require(caller);
    return this.transactions.transaction(async () => {
      const account = await this.lockKeepingAnAdmin(actor, id);
      if (account.status === DISABLED_STATUS) throw new AppError('CONFLICT', 'The account is disabled already');
      await this.accounts.disable(id);
      // Every token stops at once: they get 401 from their next request.
      await this.tokens.revokeAllOf(id, null);
      await this.audit.record(actor, AuditAction.ACCOUNT_DISABLED, account);
      return (await this.accounts.byId(id))!;
    });
  }

  /** Lets a disabled account sign in again (its old tokens stay revoked). */
  async enable(caller: Caller, id: number): Promise<AccountRow> {
    const actor = await this.access.require(caller);
    return this.transactions.transaction(async () => {
      const account = await this.accounts.lock(id);
      if (!account) throw AppError.notFound('Account');
      if (account.status !== DISABLED_STATUS) throw new AppError('CONFLICT', 'The account is not disabled');
      await this.accounts.enable(id);
      await this.audit.record(actor, AuditAction.ACCOUNT_ENABLED, account);
      return (await this.accounts.byId(id))!;
    });
  }

  /**
   * Deletes an account and all its data in one transaction, once its e-mail address is typed again. Its
   * household goes with it (the records shared there were its own); households it joined keep its shares
   * under its name, as when a member leaves. The audit entry stays.
   */
  async delete(caller: Caller, id: number, confirmEmail: string): Promise<void> {
    const actor = await this.access.require(caller);
    await this.transactions.transaction(async () => {
      const account = await this.lockKeepingAnAdmin(actor, id);
      if (normaliseEmail(confirmEmail) !== account.email)
        throw AppError.field('confirmEmail', "Type the account's e-mail address to confirm the deletion.");
      await this.audit.record(actor, AuditAction.ACCOUNT_DELETED, account, {
        name: account.name,
        createdAt: account.created_at,
        recordCount: account.record_count,
      });
      await this.accounts.delete(id);
    });
  }

  /** Makes the account of this e-mail address an admin, from the shell. */
  async grantFromShell(email: string): Promise<{ id: number; email: string }> {
    return this.transactions.transaction(async () => {
      const account = await this.accounts.makeAdmin(normaliseEmail(email));
      if (!account) throw AppError.notFound('Account');
      await this.audit.record(SHELL, AuditAction.ADMIN_GRANTED, account);
      return account;
    });
  }

  /**
   * The account, locked, when shutting it out leaves an active admin: the active admins are locked first (in
   * one order), so two admins disabling or deleting each other at once take turns and one of them stays; the
   * actor must still be one of them.
   */
  private async lockKeepingAnAdmin(actor: Actor, id: number): Promise<AccountRow> {
    const admins = await this.accounts.lockActiveAdmins();
    if (actor.id === null || !admins.includes(actor.id)) throw forbidden();
    const account = await this.accounts.lock(id);
    if (!account) throw AppError.notFound('Account');
    if (account.role_id === ADMIN_ROLE && admins.length === 1 && admins[0] === id)
      throw new AppError('CONFLICT', 'The last admin cannot be disabled or deleted: make another admin first');
    return account;
  }
}
