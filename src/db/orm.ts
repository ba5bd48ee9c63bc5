import { MikroORM, type Options } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';

import type { Config } from '../platform/config';
import { DirectReads } from '../platform/db/direct-reads';
import type { EmbeddedPostgres } from '../platform/db/embedded-postgres';
import type { Logger } from '../platform/logger';
import { ENTITIES } from './entities';
import { APPLIED_MIGRATIONS, migrate } from './migrations';

export interface Database {
  orm: MikroORM<PostgreSqlDriver>;
  /** Hot reads on the same pool as named prepared statements. */
  reads: DirectReads;
  /** Resolves when the database answers a trivial statement (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Called with every SQL statement the ORM runs (tests count statements per request with it). */
export type QueryListener = (sql: string) => void;

export function ormOptions(clientUrl: string, poolMax: number, onQuery?: QueryListener): Options<PostgreSqlDriver> {
  return {
    ...(onQuery
      ? {
          debug: ['query'] as const,
          logger: (message: string) => {
            if (message.startsWith('[query]')) onQuery(message);
          },
        }
      : { debug: false }),
    // Every ORM, listened to or not: each sets the process's MIKRO_ORM_COLORS as it starts, and one left with
    // colours coloured every other's messages, which a listener then no longer knew as statements.
    colors: false,
    driver: PostgreSqlDriver,
    clientUrl,
    entities: ENTITIES,
    pool: {
      min: 0,
      max: poolMax,
      // Every join in our SQL is written by hand in the order it should run; searching for another order cost
      // more than executing the record reads (10 ms of planning against 2 ms of execution for a page).
      afterCreate(
        connection: { query(sql: string, done: (error?: Error) => void): void },
        done: (error: Error | undefined, connection: unknown) => void,
      ) {
        connection.query('set join_collapse_limit = 1', (error) => done(error, connection));
      },
    },
    // Every statement and every schema diff runs against UTC; timestamps are UTC strings.
    forceUtcTimezone: true,
    allowGlobalContext: false,
    // Migrations are the authority for the tables no entity maps (their statements live in repositories):
    // the schema diff behind migration:create must neither drop nor recreate them.
    schemaGenerator: {
      skipTables: [
        'reminders',
        'subscription_alerts',
        'inbound_idempotency_keys',
        'rate_limits',
        'data_versions',
        'statement_proposals',
        'statement_layouts',
        'two_factor',
        'two_factor_recovery_codes',
        'instance_settings',
        'invitations',
        'audit_log',
      ],
    },
    migrations: {
      tableName: APPLIED_MIGRATIONS,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
      path: 'src/db/migrations',
      emit: 'ts',
    },
  };
}

/** Any number that all Subledger processes agree on: they take turns at migrating (and restoring) through it. */
export const MIGRATION_LOCK = 720_417;

/**
 * Opens the database named by `url` and brings its schema up to date with the committed migrations. Several
 * processes may start at once (cluster workers, `npm run worker`, a second instance): a PostgreSQL advisory
 * lock lets one migrate while the others wait, then find nothing left to apply.
 */
export async function openDatabase(
  url: string,
  config: Pick<Config, 'databasePoolSize'>,
  logger: Logger,
  options: { onQuery?: QueryListener; embedded?: EmbeddedPostgres } = {},
): Promise<Database> {
  const orm = await MikroORM.init(ormOptions(url, config.databasePoolSize, options.onQuery)).catch(
    async (error: unknown) => {
      await options.embedded?.stop();
      throw error;
    },
  );
  try {
    const knex = orm.em.getKnex();
    const lock = await knex.client.acquireConnection();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const applied = await migrate(orm, lock);
      if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      await knex.client.releaseConnection(lock);
    }
  } catch (error) {
    await orm.close(true);
    await options.embedded?.stop();
    throw error;
  }
  return {
    orm,
    reads: new DirectReads(orm),
    async ping() {
      await orm.em.getConnection().execute('select 1');
    },
    async close() {
      await orm.close(true);
      await options.embedded?.stop();
    },
  };
}
