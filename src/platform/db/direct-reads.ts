import { createHash } from 'node:crypto';

import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { CustomTypesConfig } from 'pg';
import type { Sql } from 'sql-template-tag';

import { isLostDatabase } from '../errors';
import { pgQuery, type PgStatement, pooled } from './statements';

/** A statement text as prepared: its name, and the one copy of the text that every run of it passes on. */
interface KnownStatement {
  name: string;
  text: string;
}

/**
 * Hot reads (record lists, token lookups) straight on the pool's `pg` connections, outside any transaction.
 * Through MikroORM/knex each one cost a tenth more CPU, and PostgreSQL planned the nine-way record join
 * anew every time (2.4 ms of planning against 1.6 ms of execution). Here a statement is named, so each
 * connection parses and plans it once.
 */
export class DirectReads {
  /** Each statement text known, by its text. */
  private readonly known = new Map<string, KnownStatement>();

  /** The most connections the pool keeps: all of them may have died at once. */
  private readonly poolSize: number;

  constructor(private readonly orm: MikroORM<PostgreSqlDriver>) {
    this.poolSize = orm.config.get('pool')?.max ?? 1;
  }

  /**
   * Rows of a read written with the `sql` tag, as a statement named by its text (its columns read by `types`).
   * A pooled connection whose server process has ended (PostgreSQL restarted, or its connections terminated)
   * is found dead only by the statement sent on it, and after a restart every one of them is: a read changed
   * nothing, so it is sent again, once per pooled connection at most, each time after the event loop has read
   * what the other sockets had to say (their end, which takes them out of the pool).
   */
  async rows<T>(query: Sql, types?: CustomTypesConfig): Promise<T[]> {
    const statement = this.named(query, types);
    for (let tries = 1; ; tries++) {
      try {
        return (await this.query<T>(statement)).rows;
      } catch (error) {
        if (!isLostDatabase(error) || tries > this.poolSize) throw error;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /**
   * Rows of a statement that writes, as rows() names it, sent once: when its connection is lost, whether it
   * committed cannot be told, so it is not sent again.
   */
  async writeRows<T>(query: Sql): Promise<T[]> {
    return (await this.query<T>(this.named(query))).rows;
  }

  /** One statement written with `$n` placeholders, named or not (the rate limiter's store uses this). */
  query<T>(statement: PgStatement): Promise<{ rows: T[]; rowCount: number | null }> {
    return pgQuery<T>(pooled(this.orm), statement);
  }

  /** `query` as a statement named by its text (see knownAs), its columns read by `types`. */
  private named(query: Sql, types?: CustomTypesConfig): PgStatement {
    const { name, text } = this.knownAs(query.text);
    return { name, text, values: query.values, types };
  }

  /**
   * The statement as first seen. Its text, built afresh for every request (~10 KB for a record page), is held
   * by the query until the answer is in; under load that outlived the young generation's collections, and
   * promoting it cost the afresh list a tenth of its CPU. The text kept here is old already; the new one dies young.
   */
  private knownAs(text: string): KnownStatement {
    let known = this.known.get(text);
    if (known === undefined) {
      known = { name: `r_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
      // Statement texts are built from a bounded set of parts (sorts, filters); the guard only keeps a bug
      // from growing the map without end.
      if (this.known.size >= 10_000) this.known.clear();
      this.known.set(text, known);
    }
    return known;
  }
}
