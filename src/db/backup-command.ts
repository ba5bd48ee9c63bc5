import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { loadConfig } from '../platform/config';
import { databaseServer, hasEmbeddedDatabase } from '../platform/db/embedded-postgres';
import { BackupRefusal, checkBackup, defaultBackupName, restoreBackup, writeBackup } from './backup';

/** Said by both commands: the one secret a backup cannot carry. */
const SECRET_KEY_NOTE =
  'NOTIFY_SECRET_KEY is not in the backup: the URLs of the notification targets in it are sealed with that key, so keep ' +
  'the key apart (see docs/backups.md) and start a restored Subledger with the same one.';

/**
 * `backup [FILE|FOLDER]` and `restore FILE` from the shell (see docs/backups.md), on DATABASE_URL or the embedded
 * database: the server of a Subledger running on DATA_DIR while it serves, else one started for the command.
 * Answers the exit code: 0 done, 1 refused (the message says why; nothing was written or changed), 2 usage.
 */
export async function runBackupCommand(
  command: 'backup' | 'restore',
  args: string[],
  usage: string,
  print: (text: string) => void,
): Promise<number> {
  let files: string[] | null;
  try {
    files = parseArgs({ args, allowPositionals: true, options: {} }).positionals;
  } catch {
    files = null;
  }
  if (files === null || (command === 'backup' ? files.length > 1 : files.length !== 1)) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  let server: Awaited<ReturnType<typeof databaseServer>> | undefined;
  try {
    // A file that cannot be restored, or written, is refused before any database server is reached (or started).
    const backup = command === 'restore' ? await checkBackup(path.resolve(files[0])) : null;
    const file = backup ? backup.file : backupFile(files[0]);
    if (!backup && existsSync(file)) throw new BackupRefusal(`${file} already exists: name another file`);
    if (!backup && !config.databaseUrl && !hasEmbeddedDatabase(config.dataDir)) {
      throw new BackupRefusal(`DATA_DIR ${config.dataDir} holds no Subledger database yet: nothing to back up`);
    }
    server = await databaseServer(config, { attach: true });
    if (!backup) {
      const summary = await writeBackup(server.url, file);
      print(`wrote ${summary.file}`);
      print(
        `${summary.tables} tables, ${summary.rows} rows, schema version ${summary.schemaVersion}, ${summary.bytes} bytes`,
      );
      print(SECRET_KEY_NOTE);
      return 0;
    }
    const summary = await restoreBackup(server.url, backup);
    print(`restored ${backup.file}`);
    print(
      `the backup of ${summary.createdAt} (Subledger ${summary.subledgerVersion}, schema version ${summary.schemaVersion}): ` +
        `${summary.tables} tables, ${summary.rows} rows`,
    );
    if (summary.migrationsToApply > 0)
      print(`${summary.migrationsToApply} newer migrations of this Subledger are applied when it starts`);
    const targets = summary.notificationTargets;
    print(
      targets > 0
        ? `It holds ${targets} notification target${targets === 1 ? '' : 's'}. ${SECRET_KEY_NOTE}`
        : SECRET_KEY_NOTE,
    );
    return 0;
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof BackupRefusal) {
      console.error(
        `${command} refused: ${message}. ${command === 'backup' ? 'No backup was written.' : 'Nothing in the database was changed.'}`,
      );
    } else {
      console.error(`${command} failed: ${message}`);
    }
    return 1;
  } finally {
    await server?.embedded?.stop();
  }
}

/** The file to write: the one named, or the default name in the folder named or the current one. */
function backupFile(named: string | undefined): string {
  if (named === undefined) return path.resolve(defaultBackupName(new Date()));
  const isFolder = statSync(named, { throwIfNoEntry: false })?.isDirectory() ?? false;
  return path.resolve(isFolder ? path.join(named, defaultBackupName(new Date())) : named);
}
