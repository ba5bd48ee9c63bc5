import type { RequiredEntityData } from '@mikro-orm/core';

import type { DataSource } from '../platform/db/data-source';
import { User } from './user.entity';

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

  async create(fields: RequiredEntityData<User>): Promise<User> {
    return this.db.insert(User, fields);
  }

  /** Writes the changes of a user read in the same transaction. */
  async save(user: User): Promise<void> {
    await this.db.save(user);
  }
}
