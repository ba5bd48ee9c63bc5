import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { pgQuery, pooled, positional, preparedName, type PgStatement } from './statements';

/**
 * Hot reads (record lists, token lookups) straight on the pool's `pg` connections, outside any transaction.
 * Through MikroORM/knex each one cost a tenth more CPU, and PostgreSQL planned the nine-way record join
 * anew every time (2.4 ms of planning against 1.6 ms of execution). Here a statement is named, so each
 * connection parses and plans it once.
 */
export class DirectReads {
  constructor(private readonly orm: MikroORM<PostgreSqlDriver>) {}

  /** Rows of a read written with `?` placeholders (never inside string literals). */
  async rows<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    const text = positional(sql);
    return (await this.query<T>({ name: preparedName(text), text, values: params })).rows;
  }

  /** One statement written with `$n` placeholders, named or not (the rate limiter's store uses this). */
  query<T>(statement: PgStatement): Promise<{ rows: T[]; rowCount: number | null }> {
    return pgQuery<T>(pooled(this.orm), statement);
  }
}
