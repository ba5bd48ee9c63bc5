import type { EntityClass, MikroORM } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';

import { type Caller, globalOrOwn } from '../platform/caller';
import { AppError, type FieldErrors, refuseFieldErrors } from '../platform/errors';
import { definedOnly, entityOrder, escapeLike, hasLength, type SortKey } from '../platform/objects';

/** A row a user names and owns: a folder, tag, payment mode, or their own product category. */
export interface OwnedNamed {
  id: number;
  user?: number | null;
  name: string;
}

export interface OwnedNamesOptions<E> {
  /** What the error messages call the row. */
  label: string;
  /** Rows without an owner every user can read but no one can change (global categories). */
  includeGlobal?: boolean;
  /** Rules on the row's other fields. */
  validate?: (fields: Partial<E>) => FieldErrors;
  /** A row set as the default (is_default 1) clears the owner's other default, as the original's folders do. */
  singleDefault?: boolean;
}

/** A page of rows: name search, offset paging and an order over entity properties. */
export interface OwnedPageQuery<F extends string> {
  q?: string;
  start: number;
  length: number;
  sort: SortKey<F>[];
  properties: Record<F, string>;
}

/** CRUD of the caller's named rows; another user's row is "not found"; names are unique per owner. */
export class OwnedNamesService<E extends OwnedNamed> {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly entity: EntityClass<E>,
    private readonly options: OwnedNamesOptions<E>,
  ) {}

  async list(caller: Caller): Promise<E[]> {
    return this.orm.em
      .fork()
      .find(this.entity, this.visibleTo(caller) as never, { orderBy: { name: 'asc', id: 'asc' } as never });
  }

  async page<F extends string>(caller: Caller, query: OwnedPageQuery<F>): Promise<E[]> {
    const q = query.q?.trim();
    return this.orm.em
      .fork()
      .find(
        this.entity,
        { ...this.visibleTo(caller), ...(q ? { name: { $ilike: `%${escapeLike(q)}%` } } : {}) } as never,
        {
          orderBy: entityOrder(query.sort, query.properties) as never,
          offset: query.start,
          limit: query.length,
        },
      );
  }

  async get(caller: Caller, id: number): Promise<E> {
    const row = await this.orm.em.fork().findOne(this.entity, { id, ...this.visibleTo(caller) } as never);
    if (!row) throw AppError.notFound(this.options.label);
    return row;
  }

  async create(caller: Caller, fields: { name: string } & Partial<E>): Promise<E> {
    const name = this.checkName(fields.name);
    this.checkRules(fields);
    return this.orm.em.transactional(async (em) => {
      await this.assertNameFree(em, caller, name, null);
      await this.clearOtherDefault(em, caller, fields, null);
      const row = em.create(this.entity, { ...fields, name, user: caller.userId } as never);
      await em.flush();
      return row;
    });
  }

  async update(caller: Caller, id: number, fields: Partial<E>): Promise<E> {
    this.checkRules(fields);
    return this.orm.em.transactional(async (em) => {
      const row = await em.findOne(this.entity, { id, user: caller.userId } as never);
      if (!row) throw AppError.notFound(this.options.label);
      const changes = { ...fields } as Partial<E>;
      if (fields.name !== undefined) {
        changes.name = this.checkName(fields.name);
        await this.assertNameFree(em, caller, changes.name, id);
      }
      await this.clearOtherDefault(em, caller, fields, id);
      Object.assign(row, definedOnly(changes));
      await em.flush();
      return row;
    });
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const removed = await this.orm.em.fork().nativeDelete(this.entity, { id, user: caller.userId } as never);
    if (removed === 0) throw AppError.notFound(this.options.label);
  }

  private visibleTo(caller: Caller): Record<string, unknown> {
    return this.options.includeGlobal ? globalOrOwn(caller.userId) : { user: caller.userId };
  }

  private checkRules(fields: Partial<E>): void {
    refuseFieldErrors(this.options.validate?.(fields) ?? {});
  }

  private async clearOtherDefault(
    em: EntityManager,
    caller: Caller,
    fields: Partial<E>,
    exceptId: number | null,
  ): Promise<void> {
    if (!this.options.singleDefault || (fields as { isDefault?: number }).isDefault !== 1) return;
    await em.nativeUpdate(
      this.entity,
      { user: caller.userId, isDefault: 1, ...(exceptId ? { id: { $ne: exceptId } } : {}) } as never,
      { isDefault: 0 } as never,
    );
  }

  private checkName(name: string): string {
    const trimmed = name.trim();
    if (!hasLength(trimmed, 1, 100)) throw AppError.field('name', 'The name must be from 1 to 100 characters.');
    return trimmed;
  }

  private async assertNameFree(
    em: EntityManager,
    caller: Caller,
    name: string,
    exceptId: number | null,
  ): Promise<void> {
    const clash = await em.findOne(this.entity, {
      user: caller.userId,
      name,
      ...(exceptId ? { id: { $ne: exceptId } } : {}),
    } as never);
    if (clash)
      throw new AppError('CONFLICT', `A ${this.options.label.toLowerCase()} with this name exists`, {
        name: ['The name has already been taken.'],
      });
  }
}
