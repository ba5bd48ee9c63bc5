import 'reflect-metadata';
import { createServer } from 'node:http';
import { ConfigError, loadConfig } from '../src/config';
import { openDatabase } from '../src/db/orm';
import { createLogger } from '../src/logger';
import { DeliveryService } from '../src/webhooks/delivery.service';
import { createServices } from '../src/services';
import { startDeliveryWorker, startReminderWorker } from './queue-workers';

/**
 * `npm run worker`: delivery workers as a process of their own, beside `npm start` (which also runs one).
 * They share the queue through Redis and the delivery log through PostgreSQL, so both must be servers.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.redisUrl || !config.databaseUrl) {
    throw new ConfigError(['npm run worker needs REDIS_URL and DATABASE_URL; with the embedded database, npm start delivers in-process']);
  }
  const logger = createLogger(config);
  const db = await openDatabase(config.databaseUrl, config, logger);
  const redis = { url: config.redisUrl, prefix: config.redisPrefix };
  const worker = startDeliveryWorker(new DeliveryService(db.orm, config), redis, logger);
  const reminderWorker = startReminderWorker(
    createServices(db.orm, config, { redis: null, redisPrefix: config.redisPrefix, reads: db.reads }, logger).reminders,
    redis,
    logger,
  );

  // Health for orchestrators: /healthz while the process runs, /readyz while the worker is connected.
  const health = createServer((req, res) => {
    const ready = req.url === '/healthz' || (req.url === '/readyz' && worker.isRunning());
    res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ready ? 'ok' : 'unavailable' }));
  }).listen(config.port);
  logger.info({ port: config.port }, 'delivery worker running');

  const stop = async () => {
    logger.info('draining delivery worker');
    health.close();
    await Promise.all([worker.close(), reminderWorker.close()]);
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
