import { MikroORM, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { DirectReads } from './direct-reads';
import { startEmbeddedPostgres } from './embedded-postgres';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface Database {
  orm: MikroORM<PostgreSqlDriver>;
  /** Hot reads on the same pool, prepared by name unless the server is PGlite. */
  reads: DirectReads;
  /** true when the data lives in the embedded PGlite. */
  embedded: boolean;
  close(): Promise<void>;
}

/** Called with every SQL statement the ORM runs (tests count statements per request with it). */
export type QueryListener = (sql: string) => void;

export function ormOptions(clientUrl: string, poolMax: number, onQuery?: QueryListener): Options<PostgreSqlDriver> {
  return {
    ...(onQuery
      ? {
          debug: ['query'] as const,
          colors: false,
          logger: (message: string) => {
            if (message.startsWith('[query]')) onQuery(message);
          },
        }
      : { debug: false }),
    driver: PostgreSqlDriver,
    clientUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    pool: {
      min: 0,
      max: poolMax,
      // Every join in our SQL is written by hand in the order it should run; searching for another order cost
      // more than executing the record reads (10 ms of planning against 2 ms of execution for a page).
      afterCreate(connection: { query(sql: string, done: (error?: Error) => void): void }, done: (error: Error | undefined, connection: unknown) => void) {
        connection.query('set join_collapse_limit = 1', (error) => done(error, connection));
      },
    },
    // Every statement and every schema diff runs against UTC; timestamps are UTC strings.
    forceUtcTimezone: true,
    allowGlobalContext: false,
    migrations: {
      migrationsList: MIGRATIONS,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
      path: 'src/db/migrations',
      emit: 'ts',
    },
  };
}

/**
 * Opens the database named by DATABASE_URL or, when it is unset, the embedded PGlite under DATA_DIR,
 * and brings its schema up to date with the committed migrations.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'>,
  logger: Logger,
  options: { inMemory?: boolean; onQuery?: QueryListener } = {},
): Promise<Database> {
  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres(options.inMemory ? null : config.dataDir);
  const clientUrl = config.databaseUrl ?? embedded!.url;
  try {
    const orm = await MikroORM.init(ormOptions(clientUrl, embedded ? embedded.maxConnections : config.databasePoolSize, options.onQuery));
    const applied = await orm.getMigrator().up();
    if (applied.length > 0) logger.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
    // PGlite (ours, or one behind DATABASE_URL) gives every connection one shared session: no named statements.
    const [{ version }] = await orm.em.getConnection().execute<{ version: string }[]>('select version() as "version"');
    const sharedSession = embedded !== null || version.includes('PGlite');
    return {
      orm,
      reads: new DirectReads(orm, { named: !sharedSession, onQuery: options.onQuery }),
      embedded: embedded !== null,
      async close() {
        await orm.close(true);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
