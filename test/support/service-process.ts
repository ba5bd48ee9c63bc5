import { type ChildProcess, spawn, type SpawnOptions, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { clockEnvironment } from './test-clock';
import { until } from './wait';

/**
 * The repository, whose dist/ `pretest` has built: the nearest folder with a package.json (this file runs
 * from test/support under jest and from dist-bench/test/support in the bench).
 */
export const root = (() => {
  let folder = __dirname;
  while (!existsSync(path.join(folder, 'package.json'))) folder = path.dirname(folder);
  return folder;
})();

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** What the process wrote to stderr so far. */
  stderr(): string;
  /** What the process wrote to stdout (its log) so far. */
  stdout(): string;
  /** Resolves to the exit code once it has exited. */
  exited: Promise<number | null>;
}

/** The node arguments of `npm start` (its V8 settings included), so tests and the bench run what users run. */
export function startArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = scripts.start.split(/\s+/);
  if (command !== 'node') throw new Error(`npm start runs ${command}, not node`);
  return args;
}

/** `npm start`'s process with exactly this environment (plus PATH, HOME and the test's clock). */
export function spawnService(
  env: NodeJS.ProcessEnv,
  port: number,
  options: Pick<SpawnOptions, 'uid' | 'gid'> = {},
): ServiceProcess {
  const child = spawn(process.execPath, startArguments(), {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // No test reaches the internet for vendors' logos (logos.test.ts fetches from a site of its own), and a
      // fetch's claim is a row that tests comparing databases would find.
      LOGO_FETCH: 'off',
      ...clockEnvironment(),
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, url: `http://127.0.0.1:${port}`, stderr: () => stderr, stdout: () => stdout, exited };
}

/** Starts the service and waits for /readyz; fails with its stderr if it exits first. */
export async function startService(
  env: NodeJS.ProcessEnv,
  port: number,
  options: Pick<SpawnOptions, 'uid' | 'gid'> = {},
): Promise<ServiceProcess & { startedInMs: number }> {
  const began = Date.now();
  const service = spawnService(env, port, options);
  let exitCode: number | null | undefined;
  void service.exited.then((code) => (exitCode = code));
  await until(
    async () => {
      if (exitCode !== undefined)
        throw new Error(`the service exited (${exitCode}) before it was ready:\n${service.stderr()}`);
      return fetch(`${service.url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    '/readyz',
    60_000,
  );
  return { ...service, startedInMs: Date.now() - began };
}

/** SIGTERM, then the exit code. */
export function stopService(service: ServiceProcess): Promise<number | null> {
  service.child.kill('SIGTERM');
  return service.exited;
}

/** The process ids whose parent is `pid` (Linux). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * The process at `pid` as /proc tells it (its start time tells a reused pid apart; its session, the one it
 * leads or joined), or null when there is none or it has exited and waits only to be reaped (a zombie: an
 * orphan adopted by a PID 1 that reaps late).
 */
export function runningProcess(pid: number): { started: string; session: number; command: string } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const close = stat.lastIndexOf(')');
  // After the command name: state, ppid, pgrp, session, then 14 fields up to the start time (fields 3 to 22 of
  // proc(5)).
  const [state, , , session, ...rest] = stat.slice(close + 2).split(' ');
  return state === 'Z'
    ? null
    : { started: rest[15], session: Number(session), command: stat.slice(stat.indexOf('(') + 1, close) };
}

/** Every process id in /proc. */
function processIds(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** Every running process of session `sid` (a process started detached leads a session of its own). */
export function sessionMembers(sid: number): Array<{ pid: number; command: string }> {
  return processIds().flatMap((pid) => {
    const member = runningProcess(pid);
    return member?.session === sid ? [{ pid, command: member.command }] : [];
  });
}

export function isAlive(pid: number): boolean {
  return runningProcess(pid) !== null;
}

/** Every process whose command line names the data folder's embedded server (started with -D DATA_DIR/postgres). */
export function embeddedServerProcesses(dataDir: string): number[] {
  return processIds().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path.join(dataDir, 'postgres'));
    } catch {
      return false;
    }
  });
}

/** The CLI (`npm run cli -- …`) run to its end on the test's database, at the test's clock. */
export function runCli(databaseUrl: string, ...args: string[]) {
  return spawnSync(process.execPath, ['dist/src/cli.js', ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...clockEnvironment(),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
    },
    encoding: 'utf8',
  });
}
