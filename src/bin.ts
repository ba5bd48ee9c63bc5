#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';

import { missingMallocSettings, SERVER_NODE_FLAGS } from './platform/ops/node-flags';

/**
 * `subledger`, the command of the installed release (package.json "bin"):
 * - no command, or `start`: the server, as `npm start` runs it in a checkout;
 * - `worker`: the delivery worker beside it, as `npm run worker` (Redis and a PostgreSQL server);
 * - any other: the administration commands of src/cli.ts in this process (`subledger --help` lists them).
 * Settings come from the environment (docs/release.md).
 */
const [command] = process.argv.slice(2);
if (command === undefined || command === 'start') {
  runNode(path.join(__dirname, 'main.js'), SERVER_NODE_FLAGS);
} else if (command === 'worker') {
  runNode(path.join(__dirname, '..', 'workers', 'main.js'), []);
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CLI reads process.argv when loaded
  require('./cli');
}

/**
 * Runs `script` in a node of its own under `flags` (which only node's command line can set), with this
 * process's standard streams and environment, plus the malloc settings it lacks (see SERVER_MALLOC_ENV).
 * SIGTERM, SIGINT and SIGHUP are passed on, so stopping this process stops the server the way stopping `npm
 * start`'s does (it drains, then stops its embedded PostgreSQL); this process then ends as the child did: with
 * its exit code, or by the same signal.
 */
function runNode(script: string, flags: readonly string[]): void {
  const child = spawn(process.execPath, [...flags, script], {
    stdio: 'inherit',
    env: { ...process.env, ...missingMallocSettings() },
  });
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of signals) process.on(signal, forward);
  child.once('error', (error) => {
    console.error(`subledger: could not start ${script}: ${error.message}`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    for (const name of signals) process.off(name, forward);
    if (signal) {
      process.kill(process.pid, signal);
      // As PID 1 (a container without an init) the kernel ignores the signal: end as a shell reports it.
      process.exit(128 + constants.signals[signal]);
    }
    process.exit(code ?? 1);
  });
}
