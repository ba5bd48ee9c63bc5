import 'reflect-metadata';

import { createReadStream, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { RESET_LINK_MINUTES } from './auth/password.service';
import { importRates, type RatesFile } from './currency/rates.service';
import { runBackupCommand } from './db/backup-command';
import type { StatementAnalysis } from './detection/detection.service';
import type { CsvMapping, StatementFormat } from './detection/statement';
import type { ImportFormat, ImportReport } from './imports/import.service';
import type { ColumnMapping } from './imports/loose-formats';
import { ConfigError, loadConfig } from './platform/config';
import { runningEmbeddedPostgres } from './platform/db/embedded-postgres';
import { AppError } from './platform/errors';
import { VERSION } from './platform/version';
import { createRuntime } from './runtime/runtime';
import { periodInWords } from './subscriptions/codes';

const IMPORT_FORMATS: ImportFormat[] = ['wallos', 'csv', 'subledger'];

/** One line per row (what it became, or why it is refused), then the totals. */
function printImportReport(report: ImportReport): void {
  for (const row of report.rows) {
    const problems = Object.entries(row.problems).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
    const made = row.matches.filter((match) => !match.existing).map((match) => `new ${match.kind} "${match.name}"`);
    const detail = row.outcome === 'REFUSED' ? problems : [...made, ...row.notes];
    console.log(
      `line ${row.line}\t${row.outcome}${row.recordId ? ` #${row.recordId}` : ''}\t${row.name}${detail.length ? `\t${detail.join('; ')}` : ''}`,
    );
  }
  for (const endpoint of report.webhookEndpoints)
    console.log(`webhook endpoint ${endpoint.url}: new secret ${endpoint.secret}`);
  const verb = report.dryRun ? 'would be created' : 'created';
  console.log(
    `${report.total} rows: ${report.dryRun ? report.total - report.refused : report.created} ${verb}, ${report.refused} refused`,
  );
}

/** One line per proposal (its id, what, how often, why), or the columns to map. */
function printAnalysis(analysis: StatementAnalysis): void {
  if (analysis.needsMapping) {
    console.log(
      `the columns were not recognised: give --map date=… --map payee=… --map amount=… (columns: ${analysis.layout.header.join(', ')})`,
    );
    return;
  }
  for (const proposal of analysis.proposals) {
    const period = periodInWords(proposal.billing_cycle, proposal.billing_frequency);
    const tracked = proposal.tracked_subscription_id ? `\ttracked as #${proposal.tracked_subscription_id}` : '';
    console.log(
      `#${proposal.id}\t${proposal.payee}\t${proposal.price} ${proposal.currency}\t${period}\tnext ${proposal.next_date}\t${proposal.reasons.join('; ')}${tracked}`,
    );
  }
  console.log(`${analysis.transactionCount} transactions: ${analysis.proposals.length} recurring payments proposed`);
}

const USAGE = [
  'usage: npm run cli -- user:create --email E --password P --name N',
  `       npm run cli -- users:reset-password --email E   (prints a link that sets a new password, once, within ${RESET_LINK_MINUTES} minutes)`,
  '       npm run cli -- users:admin --email E   (makes that account an admin of the instance; the first account is one)',
  '       npm run cli -- rates:import --file rates.json   ({"asOf": "YYYY-MM-DD", "rates": {"EUR": "0.92", …}} per US dollar)',
  '       npm run cli -- import --user EMAIL --file F --format wallos|csv|subledger [--dry-run] [--skip-refused]',
  '                         [--currency XXX] [--date-order DMY|MDY] [--map field=Column ...]   (see README: Import)',
  '       npm run cli -- detect FILE --user EMAIL [--format csv|ofx|camt053|mt940] [--map field=Column ...]',
  '                         (recurring payments in a bank statement, proposed to EMAIL; field: date, payee, amount, debit, …)',
  '       npm run -s cli -- db:url   (the database URL, e.g. for pg_dump; with the embedded default, Subledger must be running)',
  '       npm run cli -- backup [FILE|FOLDER]   (the whole database, while Subledger runs; default ./subledger-backup-<UTC time>.gz;',
  '                         NOTIFY_SECRET_KEY is not in it: keep it apart, see docs/backups.md)',
  '       npm run cli -- restore FILE   (into an empty database, e.g. a new DATA_DIR; then start Subledger with the same NOTIFY_SECRET_KEY)',
].join('\n');

/** Loaded by the release's `subledger` (src/bin.ts) rather than run as `npm run cli`: usage names that command. */
const PROGRAM = require.main === module ? null : 'subledger';

function usage(): string {
  return PROGRAM ? USAGE.replace(/npm run (-s )?cli --/g, PROGRAM) : USAGE;
}

/** `--help`: how to run the server, then every command above, with where the data is. */
function help(): string {
  let dataDir: string;
  try {
    dataDir = loadConfig().dataDir;
  } catch (error) {
    dataDir = `(not read: ${error instanceof Error ? error.message : String(error)})`;
  }
  const program = PROGRAM ?? 'npm run cli --';
  const line = (how: string, what: string) => `${how.padEnd(28)} ${what}`;
  return [
    `Subledger ${VERSION}: a self-hosted subscription tracker. Settings come from the environment (docs/release.md).`,
    '',
    line(
      PROGRAM ? 'subledger [start]' : 'npm start',
      `run the server on PORT (3000), with its data in DATA_DIR (here ${dataDir})`,
    ),
    line(
      PROGRAM ? 'subledger worker' : 'npm run worker',
      'run a delivery worker beside servers sharing REDIS_URL and DATABASE_URL',
    ),
    line(`${program} --version`, 'print the version'),
    line(`${program} --help`, 'print this help'),
    '',
    usage(),
  ].join('\n');
}

/**
 * Administration from the shell: accounts, exchange-rate refreshes and imports. With the embedded database it uses the
 * server of a Subledger running on DATA_DIR, or starts one for the command.
 */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v') {
    console.log(VERSION);
    return 0;
  }
  if (command === 'help' || argv.includes('--help') || argv.includes('-h')) {
    console.log(help());
    return 0;
  }
  if (command === 'backup' || command === 'restore')
    return runBackupCommand(command, rest, usage(), (text) => console.log(text));
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: command === 'detect',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      file: { type: 'string' },
      user: { type: 'string' },
      format: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'skip-refused': { type: 'boolean', default: false },
      currency: { type: 'string' },
      'date-order': { type: 'string' },
      map: { type: 'string', multiple: true },
    },
  });
  const userCreate = command === 'user:create' && values.email && values.password && values.name;
  const resetLink = command === 'users:reset-password' && values.email;
  const adminGrant = command === 'users:admin' && values.email;
  const ratesImport = command === 'rates:import' && values.file;
  const fileImport =
    command === 'import' && values.user && values.file && IMPORT_FORMATS.includes(values.format as ImportFormat);
  const statementFile = command === 'detect' && values.user && positionals.length === 1 ? positionals[0] : null;
  if (
    !userCreate &&
    !resetLink &&
    !adminGrant &&
    !ratesImport &&
    !fileImport &&
    !statementFile &&
    command !== 'db:url'
  ) {
    console.error(usage());
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
    if (fileImport) {
      const caller = await runtime.services.auth.callerByEmail(values.user!);
      const report = await runtime.services.imports.import(caller, createReadStream(values.file!), {
        format: values.format as ImportFormat,
        dryRun: values['dry-run']!,
        skipRefused: values['skip-refused']!,
        currency: values.currency,
        dateOrder: values['date-order'] === 'DMY' || values['date-order'] === 'MDY' ? values['date-order'] : undefined,
        mapping: Object.fromEntries((values.map ?? []).map((pair) => pair.split('=', 2))) as ColumnMapping,
      });
      printImportReport(report);
      return report.refused > 0 && !values['skip-refused'] ? 1 : 0;
    }
    if (statementFile) {
      const caller = await runtime.services.auth.callerByEmail(values.user!);
      const mapping = values.map && (Object.fromEntries(values.map.map((pair) => pair.split('=', 2))) as CsvMapping);
      const analysis = await runtime.services.detection.analyze(caller, readFileSync(statementFile), {
        format: values.format as StatementFormat | undefined,
        mapping: mapping || undefined,
      });
      printAnalysis(analysis);
      return analysis.needsMapping ? 1 : 0;
    }
    if (resetLink) {
      const link = await runtime.services.passwords.resetLinkFor(values.email!);
      console.log(
        `password reset link for <${values.email}> (works once, within ${RESET_LINK_MINUTES} minutes):\n${link}`,
      );
      return 0;
    }
    if (adminGrant) {
      const admin = await runtime.services.accountAdmin.grantFromShell(values.email!);
      console.log(`user ${admin.id} <${admin.email}> is an admin`);
      return 0;
    }
    if (ratesImport) {
      const count = await importRates(runtime.db.orm, readRatesFile(values.file!));
      console.log(`imported ${count} exchange rates`);
      return 0;
    }
    const user = await runtime.services.auth.createUser({
      email: values.email!,
      password: values.password!,
      name: values.name!,
    });
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

/** The rates file's JSON, or a refusal saying why it cannot be read (missing, unreadable, not JSON). */
function readRatesFile(file: string): RatesFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw AppError.badInput(`cannot read the rates file ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as RatesFile;
  } catch (error) {
    throw AppError.badInput(`the rates file ${file} is not JSON: ${(error as Error).message}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
