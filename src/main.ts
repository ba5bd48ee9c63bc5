import 'reflect-metadata';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { EmbeddedDatabaseError } from './db/embedded-postgres';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  const port = await app.listen(config.port);
  app.logger.info(
    { port, database: app.db.embedded ? `embedded (${config.dataDir})` : 'postgresql', queue: config.redisUrl ? 'redis' : 'in-process' },
    `Subledger listening on http://localhost:${port}`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal }, 'shutting down');
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
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof EmbeddedDatabaseError ? error.message : error);
  process.exit(1);
});
