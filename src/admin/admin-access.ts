import type { Caller } from '../platform/caller';
import { AppError } from '../platform/errors';
import type { AccountRepository } from './account.repository';

/** Who did an admin action: an admin's account, or the operator at the shell (no account). */
export interface Actor {
  id: number | null;
  email: string | null;
}

/** The operator at the shell: the CLI acts with the server's own rights, as no account. */
export const SHELL: Actor = { id: null, email: null };

/** The answer to anyone but an admin. */
export function forbidden(): AppError {
  return new AppError('FORBIDDEN', 'Only an admin of this instance may do this');
}

/** The one check in front of every admin operation: the caller is an active admin, or FORBIDDEN. */
export class AdminAccess {
  constructor(private readonly accounts: AccountRepository) {}

  async require(caller: Caller): Promise<Actor> {
    const admin = await this.accounts.activeAdmin(caller.userId);
    if (!admin) throw forbidden();
    return admin;
  }

  async isAdmin(caller: Caller): Promise<boolean> {
    return (await this.accounts.activeAdmin(caller.userId)) !== null;
  }
}
