import 'reflect-metadata';

import { createServer } from 'node:http';

import { ConfigError, loadConfig } from '../src/platform/config';
import { createRuntime } from '../src/runtime/runtime';

/**
 * `npm run worker`: delivery workers as a process of their own, beside `npm start` (which also runs one).
 * They share the queue through Redis and the delivery log through PostgreSQL, so both must be servers.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await createRuntime(config, 'worker');
  const { logger } = runtime;

  // Health for orchestrators: /healthz while the process runs, /readyz while the worker is connected.
  const health = createServer((req, res) => {
    const ready =
      req.url === '/healthz' || (req.url === '/readyz' && runtime.workers.every((worker) => worker.isRunning()));
    res
      .writeHead(ready ? 200 : 503, { 'content-type': 'application/json' })
      .end(JSON.stringify({ status: ready ? 'ok' : 'unavailable' }));
  }).listen(config.port);
  logger.info({ port: config.port }, 'delivery worker running');

  const stop = async () => {
    logger.info('draining delivery worker');
    health.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
