/**
 * The node flags `npm start` gives the server (package.json's start script; test/unit/release.test.ts keeps
 * the two equal): a young generation of 2 × 2 MB instead of 2 × 16, and one V8 helper thread instead of four
 * (see main.ts). Only node's command line can set them, so `subledger` starts the server as a child process
 * with them; API processes under the supervisor inherit them.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--v8-pool-size=1'];

/**
 * glibc's malloc, left to itself, raises the size from which it maps a block apart (and unmaps it when freed)
 * to the largest block freed so far, up to 32 MiB, and keeps up to twice that free before giving memory back.
 * One password hash (argon2's 19 MiB) was enough: from then on every thread-pool thread that hashed kept its
 * 19 MiB, and an API process sat 40-50 MB higher after a few logins. A fixed threshold turns that off. glibc
 * reads it only when a process starts, from the environment; a value set by the operator is kept.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '262144' };

/** The part of SERVER_MALLOC_ENV that `env` does not set itself: what a server process started with it needs. */
export function missingMallocSettings(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(SERVER_MALLOC_ENV).filter(([name]) => env[name] === undefined));
}

/** Node 22.15 and later on POSIX systems: replaces this process's program, keeping its pid and standard streams. */
type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

/**
 * Starts this process again, in place (same pid, same arguments), with SERVER_MALLOC_ENV when it lacks it, on
 * glibc (elsewhere the settings mean nothing). Call it first, before anything is opened: nothing but the
 * standard streams survives. On a node without process.execve (20) it does nothing: the supervisor and
 * `subledger` give the setting to the processes they start, and a lone `npm start` there goes without it.
 */
export function restartWithMallocSettings(): void {
  const missing = missingMallocSettings();
  const execve = (process as unknown as { execve?: Execve }).execve;
  if (Object.keys(missing).length === 0 || typeof execve !== 'function' || !usesGlibc()) return;
  execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...missing,
  });
}

function usesGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const { header } = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return header?.glibcVersionRuntime !== undefined;
}
