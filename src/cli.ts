import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AuthService } from './auth/auth.service';
import { LoginThrottle } from './auth/login-throttle';
import { ConfigError, loadConfig } from './config';
import { importRates, type RatesFile } from './currency/rates.service';
import { databaseServer } from './db/embedded-postgres';
import { openDatabase } from './db/orm';
import { AppError } from './errors';
import { createLogger } from './logger';

const USAGE = [
  'usage: npm run cli -- user:create --email E --password P --name N',
  '       npm run cli -- rates:import --file rates.json   ({"asOf": "YYYY-MM-DD", "rates": {"EUR": "0.92", …}} per US dollar)',
].join('\n');

/**
 * Administration from the shell: accounts and exchange-rate refreshes. With the embedded database it uses the
 * server of a Subledger running on DATA_DIR, or starts one for the command.
 */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, file: { type: 'string' } },
  });
  const userCreate = command === 'user:create' && values.email && values.password && values.name;
  const ratesImport = command === 'rates:import' && values.file;
  if (!userCreate && !ratesImport) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const logger = createLogger({ logLevel: 'warn' });
  const server = await databaseServer(config, { attach: true });
  const db = await openDatabase(server.url, config, logger, { embedded: server.embedded });
  try {
    if (ratesImport) {
      const count = await importRates(db.orm, JSON.parse(readFileSync(values.file!, 'utf8')) as RatesFile);
      console.log(`imported ${count} exchange rates`);
      return 0;
    }
    const stores = { redis: null, redisPrefix: config.redisPrefix, reads: db.reads };
    const auth = new AuthService(db.orm, db.reads, config, new LoginThrottle(stores));
    const user = await auth.createUser({ email: values.email!, password: values.password!, name: values.name! });
    console.log(`created user ${user.id} <${user.email}>`);
    return 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    console.error(error.message, error.fieldErrors ?? '');
    return 1;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
