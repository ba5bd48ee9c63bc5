import cluster, { type Worker } from 'node:cluster';

import type { Config } from '../config';
import { databaseServer, logReclaimedOrphan, type ReclaimedOrphan } from '../db/embedded-postgres';
import type { Logger } from '../logger';
import { missingMallocSettings } from './node-flags';

/** Messages between the supervising process and the API processes. */
export type ToApiProcess = { kind: 'database'; database: SupervisedDatabase } | { kind: 'nudge' };

/** What the supervisor tells its API processes of the database it started. */
export interface SupervisedDatabase {
  url: string;
  reclaimedOrphan: ReclaimedOrphan | null;
}
export type FromApiProcess = { kind: 'ready' } | { kind: 'outbox' };

/** The API process that runs the relays, the reminder sweep and the in-process queue workers. */
export const BACKGROUND_ROLE = 'background';
const ROLE_VARIABLE = 'SUBLEDGER_PROCESS_ROLE';
/** A process that ran this long before crashing is restarted at once; one that crashed sooner, after a pause. */
const STABLE_AFTER_MS = 10_000;
const MAX_RESTART_DELAY_MS = 10_000;
/** How long SIGTERM waits for the API processes to drain before it kills them. */
const DRAIN_TIMEOUT_MS = 30_000;

interface Slot {
  role: string;
  worker: Worker;
  startedAt: number;
  ready: boolean;
  restarts: number;
}

/**
 * WEB_CONCURRENCY API processes sharing the port through node:cluster. This process stays light: it starts the
 * embedded PostgreSQL (while the API processes load their code), hands its URL to each, passes "events were
 * committed" from any of them to the one that relays, restarts a process that crashed, and on SIGTERM drains
 * them all before stopping the database.
 */
export async function superviseApiProcesses(config: Config, logger: Logger): Promise<void> {
  const slots: Slot[] = [];
  let stopping = false;
  let supervised: SupervisedDatabase | null = null;
  let failed: (error: Error) => void = () => undefined;
  const startupFailure = new Promise<never>((_, reject) => (failed = reject));
  let allReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (allReady = resolve));
  // Started at once: the API processes load their code meanwhile.
  const database = databaseServer(config);

  const send = (worker: Worker, message: ToApiProcess) => {
    if (worker.isConnected()) worker.send(message);
  };

  const fork = (slot: Omit<Slot, 'worker' | 'startedAt' | 'ready'>): Slot => {
    const worker = cluster.fork({ [ROLE_VARIABLE]: slot.role, ...missingMallocSettings() });
    const started: Slot = { ...slot, worker, startedAt: Date.now(), ready: false };
    worker.on('message', (message: FromApiProcess) => {
      if (message.kind === 'ready') {
        started.ready = true;
        // The others start once the first serves: it alone migrates, and the port answers sooner when it
        // does not share the cores with them while the embedded server is being created.
        while (slots.length < config.webConcurrency) slots.push(fork({ role: 'http', restarts: 0 }));
        if (slots.every((candidate) => candidate.ready)) allReady();
      }
      if (message.kind === 'outbox') {
        const relaying = slots.find((candidate) => candidate.role === BACKGROUND_ROLE);
        if (relaying) send(relaying.worker, { kind: 'nudge' });
      }
    });
    worker.on('online', () => supervised && send(worker, { kind: 'database', database: supervised }));
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      const index = slots.indexOf(started);
      if (!started.ready && started.restarts === 0) {
        failed(new Error(`an API process exited while starting (${signal ?? `code ${code}`}); see its output above`));
        return;
      }
      const ranFor = Date.now() - started.startedAt;
      const restarts = ranFor >= STABLE_AFTER_MS ? 0 : started.restarts + 1;
      const delay = restarts === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 250 * 2 ** restarts);
      logger.error(
        { pid: worker.process.pid, code, signal, role: started.role, restartInMs: delay },
        'API process exited; restarting it',
      );
      setTimeout(() => {
        if (!stopping) slots[index] = fork({ role: started.role, restarts: Math.max(restarts, 1) });
      }, delay);
    });
    return started;
  };

  /** Stops the API processes (SIGTERM: they drain), then the database. */
  const drain = async () => {
    stopping = true;
    const exits = slots.map((slot) =>
      slot.worker.isDead()
        ? Promise.resolve()
        : new Promise<void>((resolve) => slot.worker.once('exit', () => resolve())),
    );
    for (const slot of slots) slot.worker.process.kill('SIGTERM');
    const killer = setTimeout(() => {
      logger.warn({ afterMs: DRAIN_TIMEOUT_MS }, 'API processes still draining; killing them');
      slots.forEach((slot) => slot.worker.process.kill('SIGKILL'));
    }, DRAIN_TIMEOUT_MS);
    await Promise.all(exits);
    clearTimeout(killer);
    const started = await database.catch(() => null);
    await started?.embedded?.stop();
  };
  const stop = async () => {
    if (stopping) return;
    logger.info('draining API processes');
    await drain();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());

  slots.push(fork({ role: BACKGROUND_ROLE, restarts: 0 }));
  try {
    const started = await Promise.race([database, startupFailure]);
    const reclaimedOrphan = started.embedded?.reclaimedOrphan ?? null;
    if (reclaimedOrphan) logReclaimedOrphan(logger, reclaimedOrphan, config.dataDir);
    supervised = { url: started.url, reclaimedOrphan };
    for (const slot of slots) send(slot.worker, { kind: 'database', database: supervised });
    await Promise.race([ready, startupFailure]);
  } catch (error) {
    await drain();
    throw error;
  }
  logListening(logger, config, config.port);
}

/** The start-up line, alike for one process and for the supervisor of several. */
export function logListening(logger: Logger, config: Config, port: number): void {
  logger.info(
    {
      port,
      processes: config.webConcurrency,
      database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})`,
      queue: config.redisUrl ? 'redis' : 'in-process',
    },
    `Subledger listening on http://localhost:${port}`,
  );
}

/** In an API process under the supervisor: its role and, once the supervisor has it, the database. */
export function apiProcessOfCluster(): { background: boolean; database: Promise<SupervisedDatabase> } | null {
  if (!cluster.isWorker) return null;
  return {
    background: process.env[ROLE_VARIABLE] === BACKGROUND_ROLE,
    database: new Promise((resolve) => {
      const listener = (message: ToApiProcess) => {
        if (message.kind !== 'database') return;
        process.off('message', listener);
        resolve(message.database);
      };
      process.on('message', listener);
    }),
  };
}

export function tellSupervisor(message: FromApiProcess): void {
  process.send?.(message);
}
