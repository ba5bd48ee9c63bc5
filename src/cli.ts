import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './platform/config';
import { importRates, type RatesFile } from './currency/rates.service';
import { runningEmbeddedPostgres } from './platform/db/embedded-postgres';
import { AppError } from './platform/errors';
import { createRuntime } from './runtime/runtime';

const USAGE = [
  'usage: npm run cli -- user:create --email E --password P --name N',
  '       npm run cli -- rates:import --file rates.json   ({"asOf": "YYYY-MM-DD", "rates": {"EUR": "0.92", …}} per US dollar)',
  '       npm run -s cli -- db:url   (the database URL, e.g. for pg_dump; with the embedded default, Subledger must be running)',
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
  if (!userCreate && !ratesImport && command !== 'db:url') {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  if (command === 'db:url') {
    const url = config.databaseUrl ?? runningEmbeddedPostgres(config.dataDir);
    if (!url) {
      console.error(`no Subledger is running on DATA_DIR ${config.dataDir}: start it first (npm start)`);
      return 1;
    }
    console.log(url);
    return 0;
  }
  const runtime = await createRuntime(config, 'cli');
  try {
    if (ratesImport) {
      const count = await importRates(runtime.db.orm, JSON.parse(readFileSync(values.file!, 'utf8')) as RatesFile);
      console.log(`imported ${count} exchange rates`);
      return 0;
    }
    const user = await runtime.services.auth.createUser({ email: values.email!, password: values.password!, name: values.name! });
    console.log(`created user ${user.id} <${user.email}>`);
    return 0;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    console.error(error.message, error.fieldErrors ?? '');
    return 1;
  } finally {
    await runtime.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
