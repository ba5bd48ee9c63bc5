import { setFlagsFromString } from 'node:v8';

import { type Config, ConfigError, loadConfig } from './platform/config';
import { EmbeddedDatabaseError } from './platform/db/embedded-postgres';
import { createLogger } from './platform/logger';
import {
  apiProcessOfCluster,
  logListening,
  superviseApiProcesses,
  type SupervisedDatabase,
  tellSupervisor,
} from './platform/ops/cluster';
import { restartWithMallocSettings } from './platform/ops/node-flags';

/**
 * `npm start`: one API process (WEB_CONCURRENCY=1), or a light supervisor with WEB_CONCURRENCY API processes
 * sharing the port. The app's code is loaded only in API processes, so the supervisor stays small.
 */
async function main(): Promise<void> {
  restartWithMallocSettings();
  const config = loadConfig();
  const member = apiProcessOfCluster();
  if (member) {
    const database = await member.database;
    await runApiProcess({ ...config, databaseUrl: database.url }, member.background, database);
  } else if (config.webConcurrency > 1) {
    await superviseApiProcesses(config, createLogger(config));
  } else {
    await runApiProcess(config, true);
  }
}

/**
 * By default V8 lets the old generation grow to several times what is live before collecting it, so an API
 * process holding ~60 MB of live objects under load sat at 280 MB RSS. Growth of 60% over the live size keeps
 * it near 150 MB, with no hard cap that a large answer could hit. V8 counts the bytes of buffers made since the
 * last full collection (every answer read from PostgreSQL, ~420 KB for the afresh list) against that room, so
 * a smaller growth marked the whole live heap every ~100 lists: 60% took 12% off the afresh list's CPU against
 * 40%, for 2 MB more with the smaller young generation. (Two more settings can only be given on the command
 * line, and `npm start` gives them: a young generation of 2 × 2 MB instead of 2 × 16, and one V8 helper thread
 * instead of four, whose malloc arenas held ~8 MB; see docs/performance.md's Memory section.)
 */
const HEAP_GROWING_FLAG = '--heap-growing-percent=60';

/**
 * Under the supervisor, API processes run beside each other and the embedded PostgreSQL, whose memory adds up:
 * 20% for 20-30 MB less PSS in all, at 10-15% of the list rate.
 */
const SUPERVISED_HEAP_GROWING_FLAG = '--heap-growing-percent=20';

/** One API process: alone (`supervised` null), or under the supervisor, which started the database. */
async function runApiProcess(
  config: Config,
  background: boolean,
  supervised: SupervisedDatabase | null = null,
): Promise<void> {
  setFlagsFromString(supervised ? SUPERVISED_HEAP_GROWING_FLAG : HEAP_GROWING_FLAG);
  const { createApp } = await import('./app.js');
  const app = await createApp(config, {
    background,
    ...(supervised
      ? { onOutboxCommit: () => tellSupervisor({ kind: 'outbox' }), reclaimedOrphan: supervised.reclaimedOrphan }
      : {}),
  });
  const port = await app.listen(config.port).catch(async (error: unknown) => {
    // A port in use: the embedded server stops before the exit, not after it, so its data folder is at rest.
    await app.close().catch(() => undefined);
    throw error;
  });
  if (supervised) {
    process.on('message', (message: { kind?: string }) => message.kind === 'nudge' && app.nudgeRelays());
    tellSupervisor({ kind: 'ready' });
  } else {
    logListening(app.logger, config, port);
  }
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ reason }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (error) => {
        app.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // The supervisor is gone (killed): nobody restarts or stops this process any more.
  if (supervised) process.on('disconnect', () => stop('supervisor gone'));
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof EmbeddedDatabaseError ? error.message : error);
  process.exit(1);
});
