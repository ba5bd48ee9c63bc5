import type { EntityClass } from '@mikro-orm/core';

import { globalOrOwn } from '../platform/caller';
import type { DataSource } from '../platform/db/data-source';
import { escapeLike } from '../platform/objects';

/** A row a user names and owns: a folder, tag, payment mode, or their own product category. */
export interface OwnedNamed {
  id: number;
  user?: number | null;
  name: string;
}

/** A page of rows: a name search, an order over entity properties, offset paging. */
export interface NamedPage {
  q?: string;
  orderBy: Array<Record<string, 'asc' | 'desc'>>;
  offset: number;
  limit: number;
}

/**
 * The table of one kind of named row. A user sees their own rows, and with `includeGlobal` the rows without an
 * owner too (global categories), which no one changes.
 */
export class OwnedNamesRepository<E extends OwnedNamed> {
  constructor(
    protected readonly db: DataSource,
    private readonly entity: EntityClass<E>,
    private readonly options: { includeGlobal?: boolean } = {},
  ) {}

  /** Every row the user sees, in name order. */
  list(userId: number): Promise<E[]> {
    return this.db
      .em()
      .find(this.entity, this.visibleTo(userId) as never, { orderBy: { name: 'asc', id: 'asc' } as never });
  }

  page(userId: number, page: NamedPage): Promise<E[]> {
    return this.db
      .em()
      .find(
        this.entity,
        { ...this.visibleTo(userId), ...(page.q ? { name: { $ilike: `%${escapeLike(page.q)}%` } } : {}) } as never,
        { orderBy: page.orderBy as never, offset: page.offset, limit: page.limit },
      );
  }

  visible(userId: number, id: number): Promise<E | null> {
    return this.db.em().findOne(this.entity, { id, ...this.visibleTo(userId) } as never);
  }

  /** The user's own row (never a global one). */
  own(userId: number, id: number): Promise<E | null> {
    return this.db.em().findOne(this.entity, { id, user: userId } as never);
  }

  /** Whether the user has another row of this name. */
  async nameTaken(userId: number, name: string, exceptId: number | null): Promise<boolean> {
    const clash = await this.db.em().findOne(this.entity, {
      user: userId,
      name,
      ...(exceptId ? { id: { $ne: exceptId } } : {}),
    } as never);
    return clash !== null;
  }

  /** Clears the default mark (is_default 1) of the user's rows but `exceptId`. */
  async clearDefault(userId: number, exceptId: number | null): Promise<void> {
    await this.db
      .em()
      .nativeUpdate(
        this.entity,
        { user: userId, isDefault: 1, ...(exceptId ? { id: { $ne: exceptId } } : {}) } as never,
        { isDefault: 0 } as never,
      );
  }

  async create(userId: number, fields: { name: string } & Partial<E>): Promise<E> {
    return this.db.insert(this.entity, { ...fields, user: userId } as never);
  }

  /** Writes the changes of a row read in the same transaction. */
  async save(row: E): Promise<void> {
    await this.db.save(row);
  }

  /** Deletes the user's row; answers whether there was one. */
  async remove(userId: number, id: number): Promise<boolean> {
    return (await this.db.em().nativeDelete(this.entity, { id, user: userId } as never)) > 0;
  }

  private visibleTo(userId: number): Record<string, unknown> {
    return this.options.includeGlobal ? globalOrOwn(userId) : { user: userId };
  }
}
