import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { AppError, type FieldErrors, refuseFieldErrors } from '../platform/errors';
import { definedOnly, entityOrder, hasLength, type SortKey } from '../platform/objects';
import type { OwnedNamed, OwnedNamesRepository } from './owned-names.repository';

export type { OwnedNamed };

export interface OwnedNamesOptions<E> {
  /** What the error messages call the row. */
  label: string;
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

/**
 * CRUD of the caller's named rows; another user's row is "not found"; names are unique per owner. Which rows
 * a user sees (their own, or global ones too) is the repository's.
 */
export class OwnedNamesService<E extends OwnedNamed> {
  constructor(
    private readonly transactions: Transactions,
    private readonly rows: OwnedNamesRepository<E>,
    private readonly options: OwnedNamesOptions<E>,
  ) {}

  async list(caller: Caller): Promise<E[]> {
    return this.rows.list(caller.userId);
  }

  async page<F extends string>(caller: Caller, query: OwnedPageQuery<F>): Promise<E[]> {
    return this.rows.page(caller.userId, {
      q: query.q?.trim(),
      orderBy: entityOrder(query.sort, query.properties),
      offset: query.start,
      limit: query.length,
    });
  }

  async get(caller: Caller, id: number): Promise<E> {
    const row = await this.rows.visible(caller.userId, id);
    if (!row) throw AppError.notFound(this.options.label);
    return row;
  }

  async create(caller: Caller, fields: { name: string } & Partial<E>): Promise<E> {
    const name = this.checkName(fields.name);
    this.checkRules(fields);
    return this.transactions.transaction(async () => {
      await this.assertNameFree(caller, name, null);
      await this.clearOtherDefault(caller, fields, null);
      return this.rows.create(caller.userId, { ...fields, name });
    });
  }

  async update(caller: Caller, id: number, fields: Partial<E>): Promise<E> {
    this.checkRules(fields);
    return this.transactions.transaction(async () => {
      const row = await this.rows.own(caller.userId, id);
      if (!row) throw AppError.notFound(this.options.label);
      const changes = { ...fields } as Partial<E>;
      if (fields.name !== undefined) {
        changes.name = this.checkName(fields.name);
        await this.assertNameFree(caller, changes.name, id);
      }
      await this.clearOtherDefault(caller, fields, id);
      Object.assign(row, definedOnly(changes));
      await this.rows.save(row);
      return row;
    });
  }

  async remove(caller: Caller, id: number): Promise<void> {
    if (!(await this.rows.remove(caller.userId, id))) throw AppError.notFound(this.options.label);
  }

  private checkRules(fields: Partial<E>): void {
    refuseFieldErrors(this.options.validate?.(fields) ?? {});
  }

  private async clearOtherDefault(caller: Caller, fields: Partial<E>, exceptId: number | null): Promise<void> {
    if (!this.options.singleDefault || (fields as { isDefault?: number }).isDefault !== 1) return;
    await this.rows.clearDefault(caller.userId, exceptId);
  }

  private checkName(name: string): string {
    const trimmed = name.trim();
    if (!hasLength(trimmed, 1, 100)) throw AppError.field('name', 'The name must be from 1 to 100 characters.');
    return trimmed;
  }

  private async assertNameFree(caller: Caller, name: string, exceptId: number | null): Promise<void> {
    if (await this.rows.nameTaken(caller.userId, name, exceptId))
      throw new AppError('CONFLICT', `A ${this.options.label.toLowerCase()} with this name exists`, {
        name: ['The name has already been taken.'],
      });
  }
}
