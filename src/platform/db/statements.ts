import { TransactionContext, type MikroORM } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';

/** Where a statement runs: an EntityManager (on its transaction, when it is in one), or `pooled(orm)`. */
export type StatementTarget = Pick<EntityManager, 'getConnection' | 'getTransactionContext'>;

const pools = new WeakMap<object, StatementTarget>();

/**
 * A pooled connection outside any transaction. Cheaper than forking an EntityManager only to run a statement
 * (relays poll several times a second), and unlike the global EntityManager it never joins a transaction the
 * calling code happens to run in.
 */
export function pooled(orm: MikroORM<PostgreSqlDriver>): StatementTarget {
  let target = pools.get(orm);
  if (!target) pools.set(orm, (target = { getConnection: () => orm.em.getConnection(), getTransactionContext: () => undefined }));
  return target;
}

/**
 * The transaction the calling code runs in (an inbound webhook's unit of work, which holds its idempotency
 * key), if any: statements that would go to the pool join it instead, so they commit or roll back with it.
 */
export function ambientTransaction(): EntityManager | undefined {
  const em = TransactionContext.getEntityManager() as EntityManager | undefined;
  return em?.isInTransaction() ? em : undefined;
}

/** The ambient transaction when there is one, else a pooled connection. */
export function currentTarget(orm: MikroORM<PostgreSqlDriver>): StatementTarget {
  return ambientTransaction() ?? pooled(orm);
}

/**
 * Rows of a statement written with `?` placeholders, run on `em`'s transaction when it is in one (that
 * transaction alone sees its own writes, and holds its locks), else on a pooled connection.
 */
export function rowsOf<T>(em: StatementTarget, sql: string, params: readonly unknown[]): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, [...params], 'all', em.getTransactionContext());
}

/** A statement whose rows nobody reads, on `em`'s transaction when it is in one. */
export async function run(em: StatementTarget, sql: string, params: readonly unknown[]): Promise<void> {
  await em.getConnection().execute(sql, [...params], 'run', em.getTransactionContext());
}

/** A list of ids as one `int[]` parameter (a statement's text then stays the same whatever their number). */
export function intArray(values: readonly number[]): string {
  return `{${values.map((value) => Math.trunc(value)).join(',')}}`;
}

/**
 * Named common table expressions and their parameters, in placeholder order: a repository's share of a
 * statement that writes several tables at once (a create's record, tags, events, deliveries and reminders).
 */
export interface StatementPart {
  sql: string;
  params: unknown[];
}

/** One statement from parts and a final query over them (data-modifying parts run whether it reads them or not). */
export function withParts(parts: readonly StatementPart[], query: string): StatementPart {
  return { sql: `with ${parts.map((part) => part.sql).join(',\n')}\n${query}`, params: parts.flatMap((part) => part.params) };
}
