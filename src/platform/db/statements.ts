import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Rows of a statement written with `?` placeholders, run on `em`'s transaction when it is in one (that
 * transaction alone sees its own writes, and holds its locks), else on a pooled connection.
 */
export function rowsOf<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, [...params], 'all', em.getTransactionContext());
}

/** A statement whose rows nobody reads, on `em`'s transaction when it is in one. */
export async function run(em: EntityManager, sql: string, params: readonly unknown[]): Promise<void> {
  await em.getConnection().execute(sql, [...params], 'run', em.getTransactionContext());
}

/** A list of ids as one `int[]` parameter (a statement's text then stays the same whatever their number). */
export function intArray(values: readonly number[]): string {
  return `{${values.map((value) => Math.trunc(value)).join(',')}}`;
}
