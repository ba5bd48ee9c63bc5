import type { EntityClass, MikroORM } from '@mikro-orm/core';
import { definedOnly } from '../objects';
import type { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Caller } from '../auth/caller';
import { AppError } from '../errors';

/** A row a user names and owns: a folder, tag, payment mode, or their own product category. */
export interface OwnedNamed {
  id: number;
  user?: number | null;
  name: string;
}

export interface OwnedNamesOptions {
  /** What the error messages call the row. */
  label: string;
  /** Rows without an owner every user can read but no one can change (global categories). */
  includeGlobal?: boolean;
}

/** CRUD of the caller's named rows; another user's row is "not found"; names are unique per owner. */
export class OwnedNamesService<E extends OwnedNamed> {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly entity: EntityClass<E>,
    private readonly options: OwnedNamesOptions,
  ) {}

  async list(caller: Caller): Promise<E[]> {
    const owners = this.options.includeGlobal ? { $or: [{ user: null }, { user: caller.userId }] } : { user: caller.userId };
    return this.orm.em.fork().find(this.entity, owners as never, { orderBy: { name: 'asc', id: 'asc' } as never });
  }

  async get(caller: Caller, id: number): Promise<E> {
    const owners = this.options.includeGlobal ? { $or: [{ user: null }, { user: caller.userId }] } : { user: caller.userId };
    const row = await this.orm.em.fork().findOne(this.entity, { id, ...owners } as never);
    if (!row) throw AppError.notFound(this.options.label);
    return row;
  }

  async create(caller: Caller, fields: { name: string } & Partial<E>): Promise<E> {
    const name = this.checkName(fields.name);
    return this.orm.em.transactional(async (em) => {
      await this.assertNameFree(em, caller, name, null);
      const row = em.create(this.entity, { ...fields, name, user: caller.userId } as never);
      await em.flush();
      return row;
    });
  }

  async update(caller: Caller, id: number, fields: Partial<E>): Promise<E> {
    return this.orm.em.transactional(async (em) => {
      const row = await em.findOne(this.entity, { id, user: caller.userId } as never);
      if (!row) throw AppError.notFound(this.options.label);
      const changes = { ...fields } as Partial<E>;
      if (fields.name !== undefined) {
        changes.name = this.checkName(fields.name);
        await this.assertNameFree(em, caller, changes.name, id);
      }
      Object.assign(row, definedOnly(changes));
      await em.flush();
      return row;
    });
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const removed = await this.orm.em.fork().nativeDelete(this.entity, { id, user: caller.userId } as never);
    if (removed === 0) throw AppError.notFound(this.options.label);
  }

  private checkName(name: string): string {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 100) throw AppError.field('name', 'The name must be from 1 to 100 characters.');
    return trimmed;
  }

  private async assertNameFree(em: EntityManager, caller: Caller, name: string, exceptId: number | null): Promise<void> {
    const clash = await em.findOne(this.entity, { user: caller.userId, name, ...(exceptId ? { id: { $ne: exceptId } } : {}) } as never);
    if (clash) throw new AppError('CONFLICT', `A ${this.options.label.toLowerCase()} with this name exists`, { name: ['The name has already been taken.'] });
  }
}
