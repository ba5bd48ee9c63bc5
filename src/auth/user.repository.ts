import type { RequiredEntityData } from '@mikro-orm/core';
import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { ADMIN_ROLE, User, USER_ROLE } from './user.entity';

/** The advisory lock new accounts take in turn to decide which of them is the first (MIGRATION_LOCK is 720_417). */
const FIRST_ACCOUNT_LOCK = 720_418;

/** The users table: accounts, found by id or e-mail address. */
export class UserRepository {
  constructor(private readonly db: DataSource) {}

  byId(id: number): Promise<User | null> {
    return this.db.em().findOne(User, { id });
  }

  /** The user, or MikroORM's not-found error (for a caller whose account must exist). */
  existing(id: number): Promise<User> {
    return this.db.em().findOneOrFail(User, id);
  }

  byEmail(email: string): Promise<User | null> {
    return this.db.em().findOne(User, { email });
  }

  /** The user with the password hash, which is otherwise never read. */
  withPasswordHash(email: string): Promise<User | null> {
    return this.db.em().findOne(User, { email }, { populate: ['passwordHash'] });
  }

  /** The user by id with the password hash. */
  withPasswordHashById(id: number): Promise<User | null> {
    return this.db.em().findOne(User, { id }, { populate: ['passwordHash'] });
  }

  async setPasswordHash(id: number, passwordHash: string): Promise<void> {
    await this.db.em().nativeUpdate(User, { id }, { passwordHash });
  }

  async emailTaken(email: string): Promise<boolean> {
    return (await this.db.em().count(User, { email })) > 0;
  }

  /**
   * A new account; the admin when the instance has none (its first account). Accounts are made one at a time
   * from the lock to their commit, so two first sign-ups at once make one admin.
   */
  async create(fields: Omit<RequiredEntityData<User>, 'roleId'>): Promise<User> {
    return this.db.transaction(async () => {
      await this.db.run(sql`select pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`);
      const adminExists = (await this.db.em().count(User, { roleId: ADMIN_ROLE })) > 0;
      return this.db.insert(User, { ...fields, roleId: adminExists ? USER_ROLE : ADMIN_ROLE });
    });
  }

  /** Writes the changes of a user read in the same transaction. */
  async save(user: User): Promise<void> {
    await this.db.save(user);
  }
}
