import { type MikroORM, TransactionContext } from '@mikro-orm/core';
import type { EntityManager, Knex, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { type CustomTypesConfig, types as pgTypes } from 'pg';
import sql, { join, raw, type Sql } from 'sql-template-tag';

/** Where a statement runs: an EntityManager (on its transaction, when it is in one), or `pooled(orm)`. */
export type StatementTarget = Pick<EntityManager, 'getConnection' | 'getTransactionContext' | 'config'>;

/** A statement as node-postgres takes it: `$n` placeholders, values apart, and a name to prepare it under. */
export interface PgStatement {
  name?: string;
  text: string;
  values?: readonly unknown[];
  /** How its columns are read, where not as the pool reads them. */
  types?: CustomTypesConfig;
}

const VARCHAR_OID = 1043;
const utf8Bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

/**
 * `varchar` columns read as their UTF-8 bytes, the rest as pg reads them: for answers written by the database
 * (cast to varchar, which costs it nothing) and sent as they stand. Each string then dies as its row is read,
 * instead of living (and being promoted to the old generation) until the statement's last row has arrived.
 */
export const VARCHAR_AS_BYTES: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === VARCHAR_OID ? utf8Bytes : pgTypes.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

interface PgConnection {
  query<T>(statement: PgStatement): Promise<{ rows: T[]; rowCount: number | null }>;
}

/**
 * A statement sent to PostgreSQL with its values apart, on `em`'s transaction when it is in one, else on a
 * pooled connection. MikroORM's own execute writes every value into the statement's text first, escaping it
 * character by character: for an import's statements (half a megabyte of JSON each) that was most of their
 * JavaScript time and garbage.
 */
export async function pgQuery<T>(
  em: StatementTarget,
  statement: PgStatement,
): Promise<{ rows: T[]; rowCount: number | null }> {
  const transaction = em.getTransactionContext<Knex.Transaction>();
  const client = (transaction ?? em.getConnection().getKnex()).client as Knex.Client;
  // The listener the ORM's own statements go to (tests count a request's statements with it).
  em.config.getLogger().logQuery({ query: statement.text, level: 'info' });
  const connection = (await client.acquireConnection()) as PgConnection;
  try {
    return await connection.query<T>(statement);
  } finally {
    // On a transaction's client this gives nothing back: the connection stays the transaction's.
    await client.releaseConnection(connection);
  }
}

const pools = new WeakMap<object, StatementTarget>();

/**
 * A pooled connection outside any transaction. Cheaper than forking an EntityManager only to run a statement
 * (relays poll several times a second), and unlike the global EntityManager it never joins a transaction the
 * calling code happens to run in.
 */
export function pooled(orm: MikroORM<PostgreSqlDriver>): StatementTarget {
  let target = pools.get(orm);
  if (!target)
    pools.set(
      orm,
      (target = {
        getConnection: () => orm.em.getConnection(),
        getTransactionContext: () => undefined,
        config: orm.config,
      }),
    );
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

/** A list of ids as one `int[]` parameter (a statement's text then stays the same whatever their number). */
export function intArray(values: readonly number[]): string {
  return `{${values.map((value) => Math.trunc(value)).join(',')}}`;
}

/**
 * Named common table expressions: a repository's share of a statement that writes several tables at once (a
 * create's record, tags, events, deliveries and reminders).
 */
export interface StatementPart {
  sql: Sql;
  /**
   * A condition over the part's own expressions, true when it wrote work a relay should take now (deliveries,
   * reminders firing within the relays' look-ahead): the relays are nudged after the commit only then.
   */
  due?: string;
}

/** A column `due`: whether any of the parts wrote work a relay should take now. */
export function dueColumn(parts: readonly StatementPart[]): Sql {
  const conditions = parts.flatMap((part) => (part.due ? [part.due] : []));
  return raw(`${conditions.length > 0 ? conditions.join(' or ') : 'false'} as "due"`);
}

/** One statement from parts and a final query over them (data-modifying parts run whether it reads them or not). */
export function withParts(parts: readonly StatementPart[], query: Sql): Sql {
  return sql`with ${join(
    parts.map((part) => part.sql),
    ',\n',
  )}\n${query}`;
}
