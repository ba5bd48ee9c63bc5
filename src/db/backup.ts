import { closeSync, createWriteStream, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

import { MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Client, type ClientBase } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

import { VERSION } from '../platform/version';
import * as backupSql from './backup.sql';
import {
  BACKUP_FORMAT_VERSION,
  BACKUP_SIGNATURE,
  BackupFileError,
  type BackupManifest,
  type BackupSequence,
  type BackupTable,
  type BackupTrailer,
  countRows,
  line,
  openBackup,
  tableSection,
} from './backup-format';
import { APPLIED_MIGRATIONS, committedMigrator, MIGRATION_NAMES } from './migrations';
import { MIGRATION_LOCK, ormOptions } from './orm';

/**
 * Backups without extra tools (issue 40): `backup` writes one consistent snapshot of the whole database
 * through COPY, `restore` loads one into an empty database in one transaction. The file's format is in
 * backup-format.ts and docs/backups.md.
 */

/** A backup or restore that cannot be done, with the reason for the user; nothing was changed. */
export class BackupRefusal extends Error {}

export interface BackupSummary {
  file: string;
  schemaVersion: string;
  tables: number;
  rows: number;
  bytes: number;
}

export interface RestoreSummary {
  createdAt: string;
  subledgerVersion: string;
  schemaVersion: string;
  tables: number;
  rows: number;
  /** Rows of notification_targets: their URLs are sealed with NOTIFY_SECRET_KEY, which is not in the backup. */
  notificationTargets: number;
  /** This build's migrations after the backup's, applied when Subledger next starts. */
  migrationsToApply: number;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const columnList = (table: BackupTable) => table.columns.map((column) => quote(column.name)).join(', ');
const last = (names: readonly string[]) => names[names.length - 1];
const isPrefix = (prefix: readonly string[], of: readonly string[]) =>
  prefix.length <= of.length && prefix.every((name, index) => of[index] === name);

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, application_name: 'subledger backup' });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new BackupRefusal(`cannot connect to the database: ${(error as Error).message}`);
  }
  return client;
}

/**
 * Every table of the schema with its columns (generated ones aside: COPY FROM cannot set them), a table after
 * those its foreign keys refer to (ties by name), so that loading them in this order satisfies every key.
 */
async function schemaTables(client: Pick<ClientBase, 'query'>): Promise<BackupTable[]> {
  const { rows: columns } = await client.query<{ table: string; name: string; type: string }>(backupSql.TABLE_COLUMNS);
  const { rows: keys } = await client.query<{ child: string; parent: string }>(backupSql.FOREIGN_KEYS);
  const tables = new Map<string, BackupTable>();
  for (const { table, name, type } of columns) {
    if (!tables.has(table)) tables.set(table, { name: table, columns: [] });
    tables.get(table)!.columns.push({ name, type });
  }
  const parents = new Map(
    [...tables.keys()].map((name) => [
      name,
      new Set(keys.filter((key) => key.child === name).map((key) => key.parent)),
    ]),
  );
  const ordered: BackupTable[] = [];
  while (parents.size > 0) {
    const ready = [...parents.keys()].filter((name) => [...parents.get(name)!].every((parent) => !parents.has(parent)));
    if (ready.length === 0)
      throw new BackupRefusal(
        `the foreign keys of tables ${[...parents.keys()].join(', ')} form a cycle, which COPY cannot load`,
      );
    for (const name of ready.sort()) {
      ordered.push(tables.get(name)!);
      parents.delete(name);
    }
  }
  return ordered;
}

/**
 * The schema's sequences and the values nextval() last gave. Sequences are not transactional: read after the
 * snapshot was taken, each is at least what the snapshot's rows used, so no restored id is handed out again.
 */
async function schemaSequences(client: Pick<ClientBase, 'query'>): Promise<BackupSequence[]> {
  const { rows } = await client.query<BackupSequence>(backupSql.SEQUENCES);
  return rows;
}

/** The migrations applied to the database, oldest first; null when it has no migrations table. */
async function appliedMigrations(client: Pick<ClientBase, 'query'>): Promise<string[] | null> {
  const [{ found }] = (await client.query<{ found: boolean }>(backupSql.TABLE_EXISTS, [quote(APPLIED_MIGRATIONS)]))
    .rows;
  if (!found) return null;
  return (await client.query<{ name: string }>(backupSql.appliedMigrations(quote(APPLIED_MIGRATIONS)))).rows.map(
    (row) => row.name,
  );
}

/** The default name of a backup: its UTC time, to the second. */
export function defaultBackupName(now: Date): string {
  return `subledger-backup-${now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')}.gz`;
}

/**
 * Writes a backup of the database at `url` to `file` (refused if it exists): one REPEATABLE READ, read-only
 * transaction, so every table comes from the same moment while Subledger goes on serving; written to a
 * scratch name beside it and renamed when complete, readable by its owner only (it holds password hashes).
 */
export async function writeBackup(url: string, file: string): Promise<BackupSummary> {
  if (existsSync(file)) throw new BackupRefusal(`${file} already exists: name another file`);
  const client = await connect(url);
  const partial = `${file}.partial-${process.pid}`;
  try {
    await client.query('begin transaction isolation level repeatable read, read only');
    const migrations = await appliedMigrations(client);
    if (!migrations || migrations.length === 0)
      throw new BackupRefusal('the database holds no Subledger schema (no migrations applied): nothing to back up');
    const tables = await schemaTables(client);
    const sequences = await schemaSequences(client);
    const [origin] = (await client.query<{ now: Date; version: string }>(backupSql.SNAPSHOT_ORIGIN)).rows;
    const manifest: BackupManifest = {
      format: 'subledger-backup',
      version: BACKUP_FORMAT_VERSION,
      createdAt: origin.now.toISOString(),
      subledgerVersion: VERSION,
      postgresVersion: origin.version,
      migrations,
      tables,
      sequences,
    };
    const rows: Record<string, number> = {};
    async function* content(): AsyncGenerator<Buffer> {
      yield line(`${BACKUP_SIGNATURE} ${BACKUP_FORMAT_VERSION}`);
      yield line(JSON.stringify(manifest));
      for (const table of tables) {
        const copy = client.query(copyTo(backupSql.copyOut(quote(table.name), columnList(table))));
        yield* tableSection(copy);
        // The row count comes with the statement's completion, after the data: the next statement waits for it.
        await client.query('select 1');
        rows[table.name] = copy.rowCount;
      }
      const trailer: BackupTrailer = { end: 'subledger-backup', rows };
      yield line(JSON.stringify(trailer));
    }
    await pipeline(Readable.from(content()), createGzip(), createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    const descriptor = openSync(partial, 'r');
    try {
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(partial, file);
    await client.query('commit');
    return {
      file,
      schemaVersion: last(migrations),
      tables: tables.length,
      rows: Object.values(rows).reduce((sum, count) => sum + count, 0),
      bytes: statSync(file).size,
    };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Reads the whole file once before the database is touched: signature, manifest, every section (walked row
 * by row), trailer and the gzip checksum. Answers the manifest and each table's rows.
 */
async function inspectBackup(file: string): Promise<{ manifest: BackupManifest; trailer: BackupTrailer }> {
  try {
    const backup = await openBackup(file);
    try {
      const counted: Record<string, number> = {};
      for (const table of backup.manifest.tables) counted[table.name] = await countRows(backup.section(table), table);
      const trailer = await backup.trailer();
      const wrong = backup.manifest.tables.find((table) => trailer.rows[table.name] !== counted[table.name]);
      if (wrong)
        throw new BackupFileError(
          `${wrong.name} has ${counted[wrong.name]} rows, not the ${trailer.rows[wrong.name]} its trailer counts`,
        );
      return { manifest: backup.manifest, trailer };
    } finally {
      backup.close();
    }
  } catch (error) {
    if (error instanceof BackupFileError)
      throw new BackupRefusal(`${file} is not a backup that can be restored: ${error.message}`);
    throw error;
  }
}

/** The backup's schema must be this build's, or an earlier one: its migrations, a prefix of this build's. */
function checkSchemaVersion(manifest: BackupManifest): void {
  if (isPrefix(manifest.migrations, MIGRATION_NAMES)) return;
  const known = new Set(MIGRATION_NAMES);
  const unknown = manifest.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new BackupRefusal(
      `the backup's schema version ${last(manifest.migrations)} (Subledger ${manifest.subledgerVersion}) is newer than this build's ` +
        `${last(MIGRATION_NAMES)} (Subledger ${VERSION}): restore it with Subledger ${manifest.subledgerVersion} or later`,
    );
  }
  throw new BackupRefusal(
    `the backup's migrations (up to ${last(manifest.migrations)}) are not in this build's order (up to ${last(MIGRATION_NAMES)}): ` +
      `restore it with the Subledger version that made it (${manifest.subledgerVersion})`,
  );
}

interface PausedTrigger {
  table: string;
  name: string;
  /** pg_trigger.tgenabled: O fires normally, A always, R in replica sessions only. */
  mode: 'O' | 'A' | 'R';
}

const ENABLE: Record<PausedTrigger['mode'], string> = {
  O: 'enable trigger',
  A: 'enable always trigger',
  R: 'enable replica trigger',
};

/**
 * Pauses the schema's own triggers (not the foreign keys' internal ones, which go on checking every row) for the
 * load: the rows arrive as they were, and the data versions with them, instead of the triggers adding to those
 * versions (and taking locks) for every table loaded. ALTER TABLE is transactional: a restore that fails leaves
 * them as they were. It needs the tables' owner, not a superuser (session_replication_role would also stop the
 * foreign-key checks).
 */
async function pauseTriggers(client: Pick<ClientBase, 'query'>): Promise<PausedTrigger[]> {
  const { rows } = await client.query<PausedTrigger>(backupSql.ENABLED_TRIGGERS);
  for (const trigger of rows) {
    await client
      .query(`alter table ${quote(trigger.table)} disable trigger ${quote(trigger.name)}`)
      .catch((error: { code?: string; message: string }) => {
        if (error.code !== '42501') throw error;
        throw new BackupRefusal(
          `the database role does not own table ${trigger.table} (${error.message}), so its triggers cannot be paused for the load: ` +
            `restore as the role that owns Subledger's tables, or into a new database that role owns`,
        );
      });
  }
  return rows;
}

async function resumeTriggers(client: Pick<ClientBase, 'query'>, triggers: PausedTrigger[]): Promise<void> {
  for (const trigger of triggers)
    await client.query(`alter table ${quote(trigger.table)} ${ENABLE[trigger.mode]} ${quote(trigger.name)}`);
}

/** The schema the migrations made must be the backup's: the same tables with the same columns, and its sequences. */
async function checkSchemaMatches(client: Pick<ClientBase, 'query'>, manifest: BackupManifest): Promise<void> {
  const here = new Map((await schemaTables(client)).map((table) => [table.name, table]));
  const describe = (table: BackupTable) => table.columns.map((column) => `${column.name} ${column.type}`).join(', ');
  const differences: string[] = [];
  for (const table of manifest.tables) {
    const made = here.get(table.name);
    if (!made) differences.push(`table ${table.name} is missing`);
    else if (describe(made) !== describe(table))
      differences.push(`table ${table.name} has (${describe(made)}), the backup (${describe(table)})`);
    here.delete(table.name);
  }
  for (const name of here.keys()) differences.push(`table ${name} is not in the backup`);
  const sequences = new Set((await schemaSequences(client)).map((sequence) => sequence.name));
  for (const sequence of manifest.sequences)
    if (!sequences.has(sequence.name)) differences.push(`sequence ${sequence.name} is missing`);
  if (differences.length > 0) {
    throw new BackupRefusal(
      `the schema at ${last(manifest.migrations)} here differs from the backup's: ${differences.join('; ')}`,
    );
  }
}

/** Refuses a database with any account in it: every row a user made belongs to one. */
async function refuseNonEmpty(client: Pick<ClientBase, 'query'>): Promise<void> {
  const [{ found }] = (await client.query<{ found: boolean }>(backupSql.TABLE_EXISTS, [quote('users')])).rows;
  if (!found) return;
  // No account can be made while this looks, nor until the restore commits.
  await client.query('lock table "users" in access exclusive mode');
  const [{ accounts }] = (await client.query<{ accounts: number }>(backupSql.ACCOUNTS)).rows;
  if (accounts > 0) {
    throw new BackupRefusal(
      `the database already holds data (${accounts} account${accounts === 1 ? '' : 's'}): a backup is restored only into an empty one ` +
        `(a new DATA_DIR, or a new database for DATABASE_URL)`,
    );
  }
}

/** A backup file read through and found whole, of a schema version this build can make. */
export interface CheckedBackup {
  file: string;
  manifest: BackupManifest;
  trailer: BackupTrailer;
}

/** Reads `file` through (see inspectBackup) and refuses it unless this build's migrations can make its schema. */
export async function checkBackup(file: string): Promise<CheckedBackup> {
  const { manifest, trailer } = await inspectBackup(file);
  checkSchemaVersion(manifest);
  return { file, manifest, trailer };
}

/**
 * Restores a checked backup into the database at `url`, which must hold no account: in one transaction (with the lock
 * Subledger's processes migrate under, so one starting meanwhile waits), the schema is brought to the backup's
 * version by this build's migrations, every table is emptied of what those put there and loaded with COPY,
 * parents first, its triggers paused, and the sequences are set. Any failure rolls all of it back. The
 * migrations after the backup's are left for Subledger to apply when it starts, as after any upgrade.
 */
export async function restoreBackup(url: string, { file, manifest, trailer }: CheckedBackup): Promise<RestoreSummary> {
  const orm = await MikroORM.init<PostgreSqlDriver>({ ...ormOptions(url, 2), connect: false });
  try {
    try {
      await orm.connect();
      await orm.em.getConnection().execute('select 1');
    } catch (error) {
      throw new BackupRefusal(`cannot connect to the database: ${(error as Error).message}`);
    }
    const backup = await openBackup(file).catch((error: unknown) => {
      throw error instanceof BackupFileError
        ? new BackupRefusal(`${file} cannot be read again: ${error.message}`)
        : error;
    });
    try {
      await orm.em.getKnex().transaction((transaction) => load(orm, transaction, manifest, trailer, backup));
    } finally {
      backup.close();
    }
  } catch (error) {
    const { code, message, table } = error as { code?: string; message: string; table?: string };
    if (error instanceof BackupRefusal || error instanceof BackupFileError || typeof code !== 'string') throw error;
    // PostgreSQL refused a statement (a row breaking a key, a table the role does not own, ...).
    throw new BackupRefusal(`PostgreSQL refused the restore${table ? ` at table ${table}` : ''}: ${message} (${code})`);
  } finally {
    await orm.close(true);
  }
  const rows = Object.values(trailer.rows).reduce((sum, count) => sum + count, 0);
  return {
    createdAt: manifest.createdAt,
    subledgerVersion: manifest.subledgerVersion,
    schemaVersion: last(manifest.migrations),
    tables: manifest.tables.length,
    rows,
    notificationTargets: trailer.rows.notification_targets ?? 0,
    migrationsToApply: MIGRATION_NAMES.length - manifest.migrations.length,
  };
}

async function load(
  orm: MikroORM<PostgreSqlDriver>,
  transaction: Knex.Transaction,
  manifest: BackupManifest,
  trailer: BackupTrailer,
  backup: Awaited<ReturnType<typeof openBackup>>,
): Promise<void> {
  // The transaction's own connection: COPY streams over it.
  const client = (await transaction.client.acquireConnection()) as ClientBase;
  await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  await refuseNonEmpty(client);
  const applied = (await appliedMigrations(client)) ?? [];
  if (!isPrefix(applied, manifest.migrations)) {
    throw new BackupRefusal(
      isPrefix(manifest.migrations, applied)
        ? `the database's schema is at ${last(applied)}, newer than the backup's ${last(manifest.migrations)}: restore into a new, empty database ` +
            `(a new DATA_DIR, or a new database for DATABASE_URL)`
        : `the database's schema (up to ${last(applied)}) is not on the way to the backup's (${last(manifest.migrations)})`,
    );
  }
  if (applied.length < manifest.migrations.length) {
    const migrator = committedMigrator(orm);
    // The migrations table too is looked for (and made) in this transaction, not beside it.
    migrator.getStorage().setMasterMigration(transaction);
    await migrator.up({ to: last(manifest.migrations), transaction });
  }
  await checkSchemaMatches(client, manifest);
  const triggers = await pauseTriggers(client);
  // What the migrations put there (reference data, their own record) gives way to the backup's rows.
  await client.query(`truncate table ${manifest.tables.map((table) => quote(table.name)).join(', ')}`);
  for (const table of manifest.tables) {
    const copy = client.query(copyFrom(backupSql.copyIn(quote(table.name), columnList(table))));
    try {
      await pipeline(Readable.from(backup.section(table)), copy);
    } catch (error) {
      throw Object.assign(error as Error, { table: table.name });
    }
    if (copy.rowCount !== trailer.rows[table.name]) {
      throw new BackupRefusal(
        `table ${table.name} took ${copy.rowCount} rows, not the backup's ${trailer.rows[table.name]}`,
      );
    }
  }
  await backup.trailer();
  for (const sequence of manifest.sequences) {
    await client.query('select setval($1::regclass, $2::bigint, $3)', [
      quote(sequence.name),
      sequence.lastValue ?? sequence.startValue,
      sequence.lastValue !== null,
    ]);
  }
  await resumeTriggers(client, triggers);
}
