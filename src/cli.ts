import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { AuthService } from './auth/auth.service';
import { LoginThrottle } from './auth/login-throttle';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/orm';
import { AppError } from './errors';
import { createLogger } from './logger';

const USAGE = 'usage: npm run cli -- user:create --email E --password P --name N';

/** Administration from the shell. With the embedded database, stop the server first: PGlite allows one process. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'user:create') {
    console.error(USAGE);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  });
  if (!values.email || !values.password || !values.name) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const logger = createLogger({ logLevel: 'warn' });
  const db = await openDatabase(config, logger);
  try {
    const stores = { redis: null, redisPrefix: config.redisPrefix, knex: db.orm.em.getKnex() };
    const auth = new AuthService(db.orm, config, new LoginThrottle(stores));
    const user = await auth.createUser({ email: values.email, password: values.password, name: values.name });
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
