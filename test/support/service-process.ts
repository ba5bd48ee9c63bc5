import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { until } from './wait';

/** The repository, whose dist/ `pretest` has built: the service is started as `npm start` starts it. */
export const root = path.resolve(__dirname, '../..');

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** What the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves to the exit code once it has exited. */
  exited: Promise<number | null>;
}

/** `node dist/src/main.js` with exactly this environment (plus PATH and HOME). */
export function spawnService(env: NodeJS.ProcessEnv, port: number, options: Pick<SpawnOptions, 'uid' | 'gid'> = {}): ServiceProcess {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
    ...options,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, url: `http://127.0.0.1:${port}`, stderr: () => stderr, exited };
}

/** Starts the service and waits for /readyz; fails with its stderr if it exits first. */
export async function startService(env: NodeJS.ProcessEnv, port: number, options: Pick<SpawnOptions, 'uid' | 'gid'> = {}): Promise<ServiceProcess & { startedInMs: number }> {
  const began = Date.now();
  const service = spawnService(env, port, options);
  let exitCode: number | null | undefined;
  void service.exited.then((code) => (exitCode = code));
  await until(
    async () => {
      if (exitCode !== undefined) throw new Error(`the service exited (${exitCode}) before it was ready:\n${service.stderr()}`);
      return fetch(`${service.url}/readyz`).then((r) => r.ok, () => false);
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

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
