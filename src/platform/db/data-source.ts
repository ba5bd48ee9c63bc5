import type { EntityClass, MikroORM, RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import sql, { type Sql } from 'sql-template-tag';

import {
  ambientTransaction,
  currentTarget,
  dueColumn,
  pgQuery,
  pooled,
  type StatementPart,
  type StatementTarget,
  withParts,
} from './statements';

/** What a service needs of the database: a unit of work. Everything else is a repository's. */
export interface Transactions {
  /**
   * Runs `work` in a transaction that every repository call inside it joins (found through MikroORM's
   * transaction context, not passed along); inside another transaction it is a savepoint of that one.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Parts of several repositories' statements (a change's events, deliveries, reminders) as one statement, which
   * commits whole or not at all; `due`: whether one wrote work a relay should take now.
   */
  runParts(parts: readonly StatementPart[]): Promise<{ due: boolean }>;
}

/** Statements written with the `sql` tag (values travel apart, as `$n` parameters), run where `target` says. */
export class StatementRunner {
  constructor(private readonly target: () => StatementTarget) {}

  async rows<T>(query: Sql): Promise<T[]> {
    return (await pgQuery<T>(this.target(), { text: query.text, values: query.values })).rows;
  }

  /** The first row of a statement, if any. */
  async row<T>(query: Sql): Promise<T | undefined> {
    return (await this.rows<T>(query))[0];
  }

  /** A statement whose rows nobody reads; answers how many rows it touched. */
  async run(query: Sql): Promise<number> {
    return (await pgQuery(this.target(), { text: query.text, values: query.values })).rowCount ?? 0;
  }

  async runParts(parts: readonly StatementPart[]): Promise<{ due: boolean }> {
    const [{ due }] = await this.rows<{ due: boolean }>(withParts(parts, sql`select ${dueColumn(parts)}`));
    return { due };
  }
}

/**
 * What repositories are built on: the ORM's EntityManager and plain statements, both on the ambient transaction
 * when the caller runs in one, else on the pool. Services only see it as `Transactions`.
 */
export class DataSource extends StatementRunner implements Transactions {
  /**
   * Statements on the pool even inside a transaction: the relays' claims, which a nudge from inside a
   * transaction's callback must not join.
   */
  readonly apart: StatementRunner;

  constructor(readonly orm: MikroORM<PostgreSqlDriver>) {
    super(() => currentTarget(orm));
    this.apart = new StatementRunner(() => pooled(orm));
  }

  /**
   * The EntityManager of the ambient transaction, else a fresh fork: an entity read outside a transaction is
   * the repository method's own, so a read-change-flush stays inside one method or one transaction.
   */
  em(): EntityManager {
    return ambientTransaction() ?? this.orm.em.fork();
  }

  /** A new entity, inserted now (in the caller's transaction when there is one). */
  async insert<T extends object>(entity: EntityClass<T>, fields: RequiredEntityData<T>): Promise<T> {
    const em = this.em();
    const made = em.create(entity, fields);
    await em.flush();
    return made;
  }

  /** Writes the changes of an entity read in the same transaction. */
  async save(entity: object): Promise<void> {
    await this.em().persist(entity).flush();
  }

  /** Deletes an entity read in the same transaction. */
  async delete(entity: object): Promise<void> {
    await this.em().remove(entity).flush();
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return (ambientTransaction() ?? this.orm.em).transactional(() => work());
  }
}
