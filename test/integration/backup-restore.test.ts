import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Client } from 'pg';

import { checkBackup, restoreBackup, writeBackup } from '../../src/db/backup';
import { committedMigrator, MIGRATION_NAMES } from '../../src/db/migrations';
import { openDatabase, ormOptions } from '../../src/db/orm';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres';
import { createLogger } from '../../src/platform/logger';
import { provisionDatabase, type TestDatabase } from '../support/database';
import { Receiver } from '../support/receiver';
import { dropRedisPrefix } from '../support/redis-keys';
import { root, type ServiceProcess, startService, stopService } from '../support/service-process';
import { globalId, MINIMAL, recordId } from '../support/subscriptions';
import { clockEnvironment, daysFromToday, monthsFromToday } from '../support/test-clock';
import { freePort, until } from '../support/wait';

/**
 * Issue 40's backups: `backup` through the built CLI while Subledger serves (on the embedded default it uses
 * the running server; on DATABASE_URL the database), `restore` into an empty database, and a Subledger started
 * on the restored data that answers every user's account export, and holds every table's rows, as the one
 * backed up did. Then what restore refuses (a database with data, a newer schema, a missing or damaged file),
 * changing nothing, and a backup of an earlier schema version, brought up to date when Subledger starts.
 */
const SECRET_KEY = `backup-restore-test-${randomBytes(16).toString('hex')}`;

/** One installation: DATA_DIR, and its own database when the suite runs on DATABASE_URL. */
interface Site {
  dataDir: string;
  database: TestDatabase | null;
  redisPrefix: string;
  env: NodeJS.ProcessEnv;
}

const sites: Site[] = [];
const receiver = new Receiver();
let workDir: string;

async function makeSite(): Promise<Site> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'subledger-backup-site-'));
  const redisPrefix = `subledger-test-${randomBytes(4).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...clockEnvironment(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    NOTIFY_SECRET_KEY: SECRET_KEY,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    RATES_REFRESH: 'off',
  };
  let database: TestDatabase | null = null;
  if (process.env.DATABASE_URL) {
    database = await provisionDatabase();
    env.DATABASE_URL = database.url;
  }
  if (process.env.REDIS_URL) Object.assign(env, { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: redisPrefix });
  const site = { dataDir, database, redisPrefix, env };
  sites.push(site);
  return site;
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'subledger-backups-'));
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  for (const site of sites) {
    await site.database?.drop();
    await dropRedisPrefix(process.env.REDIS_URL, site.redisPrefix);
    rmSync(site.dataDir, { recursive: true, force: true });
  }
  rmSync(workDir, { recursive: true, force: true });
});

interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a user runs it, in `cwd` (the receiver and the apps go on answering meanwhile). */
function cli(site: Site, args: string[], cwd = workDir): Promise<CliResult> {
  const child = spawn(process.execPath, [path.join(root, 'dist/src/cli.js'), ...args], {
    cwd,
    env: site.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

/** A refusal as the user sees it: exit 1, the reason on stderr, no stack trace, nothing on stdout. */
function expectRefusal(result: CliResult, reason: RegExp): void {
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 1, stdout: '' });
  expect(result.stderr).toMatch(reason);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

/** The site's database URL: its own database, or the embedded server of the Subledger running on it. */
async function databaseUrl(site: Site): Promise<string> {
  if (site.database) return site.database.url;
  const answer = await cli(site, ['db:url']);
  if (answer.status !== 0) throw new Error(`db:url: ${answer.stderr}`);
  return answer.stdout.trim();
}

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Every table of the schema and its rows (information_schema's list), and the data versions. */
async function databaseState(
  url: string,
): Promise<{ rows: Record<string, number>; dataVersions: Record<string, string> }> {
  return withClient(url, async (client) => {
    const { rows: tables } = await client.query<{ name: string }>(
      `select "table_name" as "name" from information_schema.tables where "table_schema" = current_schema() and "table_type" = 'BASE TABLE' order by 1`,
    );
    const counts = await client.query<Record<string, string>>(
      `select ${tables.map(({ name }) => `(select count(*) from "${name}") as "${name}"`).join(', ')}`,
    );
    const versions = await client.query<{ scope: number; version: string }>(
      'select "scope", sum("version")::text as "version" from "data_versions" group by "scope" order by "scope"',
    );
    return {
      rows: Object.fromEntries(Object.entries(counts.rows[0]).map(([table, count]) => [table, Number(count)])),
      dataVersions: Object.fromEntries(versions.rows.map((row) => [row.scope, row.version])),
    };
  });
}

/** The tables in the site's database, read without starting Subledger on it (empty: none at all). */
async function tablesOf(site: Site): Promise<string[]> {
  const list = (url: string) =>
    withClient(
      url,
      async (client) =>
        (
          await client.query<{ name: string }>(
            `select "tablename" as "name" from pg_tables where "schemaname" = current_schema()`,
          )
        ).rows,
    );
  if (site.database) return (await list(site.database.url)).map((row) => row.name);
  // The CLI refuses a bad file before it starts (or creates) the embedded server.
  if (!existsSync(path.join(site.dataDir, 'postgres'))) return [];
  const server = await startEmbeddedPostgres(site.dataDir);
  try {
    return (await list(server.url)).map((row) => row.name);
  } finally {
    await server.stop();
  }
}

async function gql<T = any>(
  service: ServiceProcess,
  token: string | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: T; errors?: unknown };
  if (body.errors) throw new Error(`${query}: ${JSON.stringify(body.errors)}`);
  return body.data;
}

/** POST /api/v1/subscriptions as a client does (a multipart form, `tags[]` repeated); answers the record. */
async function createRecord(
  service: ServiceProcess,
  token: string,
  fields: Record<string, string | string[]> = {},
): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...MINIMAL, ...fields }))
    for (const item of [value].flat()) form.append(name, item);
  const response = await fetch(`${service.url}/api/v1/subscriptions`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { subscription?: { id: number } };
  if (response.status !== 200 || !body.subscription)
    throw new Error(`create failed: ${response.status} ${JSON.stringify(body)}`);
  return body.subscription.id;
}

interface User {
  email: string;
  password: string;
  token: string;
}

async function signUp(service: ServiceProcess, name: string): Promise<User> {
  const email = `${name.toLowerCase()}.${randomBytes(3).toString('hex')}@example.com`;
  const password = `${name} keeps backups`;
  const { signUp: session } = await gql(
    service,
    null,
    'mutation($input: SignUpInput!) { signUp(input: $input) { token } }',
    {
      input: { email, password, name },
    },
  );
  return { email, password, token: session.token };
}

/** What a user reads of their data: the account export (less its time) and what it leaves out. */
async function userView(service: ServiceProcess, user: User): Promise<unknown> {
  const response = await fetch(`${service.url}/export/account.json`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(response.status).toBe(200);
  const { exportedAt, ...account } = (await response.json()) as Record<string, unknown>;
  expect(exportedAt).toEqual(expect.any(String));
  const reads = await gql(
    service,
    user.token,
    `query($from: DateTime!, $to: DateTime!) {
      notificationTargets { id name scheme url createdAt updatedAt }
      calendarFeeds { id name includeReminders createdAt revokedAt }
      inboundWebhookTokens { id kind createdAt revokedAt }
      households { id name ownerName viewerRole viewerMember { id } members { id name role status } }
      webhookDeliveries(first: 100) { totalCount edges { node { id eventId topic endpointId targetId status } } }
      reminders(from: $from, to: $to) { totalCount nodes { id subscriptionId alertId kind date fireAt status } }
      paymentEntries {
        totalCount
        nodes {
          id subscriptionId dueDate expectedAmount { amount currency } status paidAmount { amount currency } paidAt note
        }
      }
    }`,
    { from: `${daysFromToday(-1)}T00:00:00Z`, to: `${daysFromToday(120)}T00:00:00Z` },
  );
  return { account, reads };
}

/** Waits until every webhook delivery is finished (nothing the relay would send again). */
async function settled(url: string): Promise<void> {
  await until(
    () =>
      withClient(url, async (client) => {
        const [{ pending }] = (
          await client.query<{ pending: number }>(
            `select count(*)::int as "pending" from "webhook_deliveries" where "status" = 'PENDING'`,
          )
        ).rows;
        return pending === 0;
      }),
    'every webhook delivery to finish',
    30_000,
  );
}

let backupFile = '';
let spare: Site;

it('restores a backup taken while Subledger serves into an empty database, every account and row as they were', async () => {
  const source = await makeSite();
  const target = await makeSite();
  const app = await startService(source.env, await freePort());
  let restored: (ServiceProcess & { startedInMs: number }) | null = null;
  try {
    const [ann, bob] = [await signUp(app, 'Ann'), await signUp(app, 'Bob')];
    // Ann: endpoints (so that writes make deliveries), a notification target on an alert of hers, records with
    // tags, a folder, an add-on, alerts (and so reminders), a price change, a paid payment and a budget.
    await gql(
      app,
      ann.token,
      'mutation($url: String!) { createWebhookEndpoint(input: {url: $url}) { webhookEndpoint { id } } }',
      {
        url: receiver.url,
      },
    );
    await gql(
      app,
      bob.token,
      'mutation($url: String!) { createWebhookEndpoint(input: {url: $url, events: [SUBSCRIPTION_CREATED]}) { webhookEndpoint { id } } }',
      {
        url: receiver.url,
      },
    );
    const {
      createNotificationTarget: { notificationTarget: target1 },
    } = await gql(
      app,
      ann.token,
      'mutation($input: CreateNotificationTargetInput!) { createNotificationTarget(input: $input) { notificationTarget { id } } }',
      {
        input: { name: 'Home hook', url: `json://${new URL(receiver.url).host}/notify` },
      },
    );
    const {
      createAlert: { alert },
    } = await gql(
      app,
      ann.token,
      'mutation { createAlert(input: {name: "Three days ahead", timePeriod: 3, time: "08:30", timezone: "Europe/Berlin", channel: WEBHOOK}) { alert { id } } }',
    );
    await gql(
      app,
      ann.token,
      'mutation($input: SetAlertTargetsInput!) { setAlertTargets(input: $input) { notificationTargets { id } } }',
      { input: { alertId: alert.id, targetIds: [target1.id] } },
    );
    const {
      createFolder: { folder },
    } = await gql(
      app,
      ann.token,
      'mutation { createFolder(input: {name: "Media", color: "#112233"}) { folder { legacyId } } }',
    );
    const {
      createPaymentMode: { paymentMode: mode },
    } = await gql(app, ann.token, 'mutation { createPaymentMode(input: {name: "Card"}) { paymentMode { legacyId } } }');
    const streaming = await createRecord(app, ann.token, {
      'tags[]': ['video', 'family'],
      folder_id: String(folder.legacyId),
      payment_mode_id: String(mode.legacyId),
      note: 'shared, with "quotes"\nand a second line',
    });
    const internet = await createRecord(app, ann.token, { price: '60.00', price_type: 'EUR', 'tags[]': ['home'] });
    // Its payments, like the records', fall about two weeks from today: none comes due while the test runs.
    await gql(app, ann.token, 'mutation($input: AddAddonInput!) { addAddon(input: $input) { subscription { id } } }', {
      input: { mainRecordId: recordId(streaming), price: '2.50', currency: 'USD', paymentDate: MINIMAL.payment_date },
    });
    await gql(
      app,
      ann.token,
      'mutation($input: SetSubscriptionAlertsInput!) { setSubscriptionAlerts(input: $input) { subscription { id } } }',
      { input: { id: recordId(streaming), alertIds: [alert.id, globalId('Alert', 1)] } },
    );
    await gql(
      app,
      ann.token,
      'mutation($input: ChangePriceInput!) { changePrice(input: $input) { subscription { id } } }',
      { input: { id: recordId(streaming), price: '17.99', effectiveFrom: monthsFromToday(3) } },
    );
    const { paymentEntries } = await gql(app, ann.token, '{ paymentEntries { nodes { id status } } }');
    expect(paymentEntries.nodes.length).toBeGreaterThan(0);
    await gql(app, ann.token, 'mutation($input: MarkPaidInput!) { markPaid(input: $input) { paymentEntry { id } } }', {
      input: { id: paymentEntries.nodes[0].id, amount: '15.49', note: 'by card' },
    });
    await gql(app, ann.token, 'mutation { setBudget(input: {amount: "120.00"}) { budget { id } } }');
    // A household: Bob invited and joined, a record of Ann's shared with him as the payer, split 60/40.
    const {
      createHousehold: { household: home },
    } = await gql(
      app,
      ann.token,
      'mutation { createHousehold(input: {name: "Home"}) { household { viewerMember { id } } } }',
    );
    const { addHouseholdMember: invited } = await gql(
      app,
      ann.token,
      'mutation($input: AddHouseholdMemberInput!) { addHouseholdMember(input: $input) { householdMember { id } invitationCode } }',
      { input: { name: 'Bob', email: bob.email, canEdit: true } },
    );
    await gql(
      app,
      bob.token,
      'mutation($input: JoinHouseholdInput!) { joinHousehold(input: $input) { household { id } } }',
      { input: { code: invited.invitationCode } },
    );
    await gql(
      app,
      ann.token,
      'mutation($input: ShareSubscriptionInput!) { shareSubscription(input: $input) { subscription { id } } }',
      {
        input: {
          id: recordId(internet),
          payerMemberId: invited.householdMember.id,
          mode: 'PERCENTAGES',
          shares: [
            { memberId: home.viewerMember.id, value: '60' },
            { memberId: invited.householdMember.id, value: '40' },
          ],
        },
      },
    );
    // Bob: a record of his own, a calendar feed and an inbound token.
    await createRecord(app, bob.token, { price: '9.99', note: "Bob's own" });
    await gql(
      app,
      bob.token,
      'mutation { createCalendarFeed(input: {name: "Phone", includeReminders: true}) { calendarFeed { id } } }',
    );
    await gql(
      app,
      bob.token,
      'mutation { createInboundWebhookToken(input: {kind: CREATE}) { inboundWebhookToken { id } } }',
    );

    // What each user reads (a first read makes some rows: settings, the ledger's entries), then the rows.
    const views = [await userView(app, ann), await userView(app, bob)];
    const sourceUrl = await databaseUrl(source);
    await settled(sourceUrl);
    const before = await databaseState(sourceUrl);
    // Every kind of row the issue names is there to be restored.
    for (const table of [
      'subscription_tags',
      'subscription_alerts',
      'reminders',
      'webhook_deliveries',
      'webhook_delivery_attempts',
      'household_members',
      'subscription_shares',
      'subscription_splits',
      'notification_targets',
      'alert_targets',
      'price_changes',
      'payment_entries',
      'calendar_feeds',
      'inbound_webhook_tokens',
      'data_versions',
    ]) {
      expect([table, before.rows[table]]).toEqual([table, expect.any(Number)]);
      expect([table, before.rows[table] > 0]).toEqual([table, true]);
    }
    expect(before.rows.users).toBe(2);

    // The backup, while the service runs, into the folder it is run in under its default name.
    const backup = await cli(source, ['backup']);
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    const written = /^wrote (.+)$/m.exec(backup.stdout)![1];
    expect(path.dirname(written)).toBe(workDir);
    expect(path.basename(written)).toMatch(/^subledger-backup-\d{8}T\d{6}Z\.gz$/);
    expect(readdirSync(workDir)).toEqual([path.basename(written)]);
    expect(backup.stdout).toContain('NOTIFY_SECRET_KEY is not in the backup');
    expect(readFileSync(written).includes(SECRET_KEY)).toBe(false);
    expect(gunzipSync(readFileSync(written)).includes(SECRET_KEY)).toBe(false);
    backupFile = written;
    // Written as of one moment: what the service writes afterwards is not in it.
    await createRecord(app, ann.token, { note: 'after the backup' });

    const restore = await cli(target, ['restore', backupFile]);
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain(`restored ${backupFile}`);
    expect(restore.stdout).toMatch(/It holds 1 notification target\. NOTIFY_SECRET_KEY is not in the backup/);

    restored = await startService(target.env, await freePort());
    const targetUrl = await databaseUrl(target);
    // The same tokens sign in (access tokens are rows like any other), and everyone reads what they read before.
    expect([await userView(restored, ann), await userView(restored, bob)]).toEqual(views);
    const after = await databaseState(targetUrl);
    expect(after.rows).toEqual(before.rows);
    // The data versions as they were: loading the rows did not count as changes (the triggers were paused).
    expect(after.dataVersions).toEqual(before.dataVersions);
    // The sequences go on from where they were: a new record takes an id after every restored one.
    const next = await createRecord(restored, bob.token, { note: 'after the restore' });
    expect(next).toBeGreaterThan(streaming);
    // The notification target's URL opens with the same NOTIFY_SECRET_KEY: a test notification reaches it.
    const received = receiver.received.length;
    const { sendTestNotification } = await gql(
      restored,
      ann.token,
      'mutation($input: SendTestNotificationInput!) { sendTestNotification(input: $input) { delivery { status } } }',
      { input: { id: target1.id } },
    );
    expect(sendTestNotification.delivery.status).toBe('SUCCEEDED');
    expect(receiver.received.slice(received).map((request) => request.url)).toContain('/notify');
    // And the password hashes came along.
    const form = new FormData();
    form.set('email', bob.email);
    form.set('password', bob.password);
    expect((await fetch(`${restored.url}/api/v1/auth/login`, { method: 'POST', body: form })).status).toBe(201);

    // Restoring over a database with data is refused, and changes nothing (the record made after the backup stays).
    await settled(sourceUrl);
    const withLater = await databaseState(sourceUrl);
    expect(withLater.rows.subscriptions).toBe(before.rows.subscriptions + 1);
    const overData = await cli(source, ['restore', backupFile]);
    expectRefusal(
      overData,
      /^restore refused: the database already holds data \(2 accounts\).*empty one.*Nothing in the database was changed\.$/m,
    );
    expect(await databaseState(sourceUrl)).toEqual(withLater);
  } finally {
    if (restored) expect(await stopService(restored)).toBe(0);
    expect(await stopService(app)).toBe(0);
  }
}, 300_000);

describe('refused files, on an empty database that stays empty', () => {
  beforeAll(async () => {
    spare = await makeSite();
  });
  afterEach(async () => {
    expect(await tablesOf(spare)).toEqual([]);
  });

  /** The backup, decompressed, changed by `edit`, and compressed again: whole as gzip, not as a backup. */
  function edited(name: string, edit: (content: Buffer) => Buffer): string {
    expect(backupFile).not.toBe('');
    const file = path.join(workDir, name);
    writeFileSync(file, gzipSync(edit(gunzipSync(readFileSync(backupFile)))));
    return file;
  }

  it('refuses a backup whose schema version is newer than this build, naming both', async () => {
    const future = 'Migration20991231000000_from_the_future';
    const file = edited('newer.gz', (content) => {
      const lines = content.toString('latin1').split('\n');
      const manifest = JSON.parse(Buffer.from(lines[1], 'latin1').toString('utf8'));
      manifest.migrations.push(future);
      lines[1] = Buffer.from(JSON.stringify(manifest), 'utf8').toString('latin1');
      return Buffer.from(lines.join('\n'), 'latin1');
    });
    const result = await cli(spare, ['restore', file]);
    expectRefusal(
      result,
      new RegExp(
        `^restore refused: the backup's schema version ${future} .* is newer than this build's ${MIGRATION_NAMES.at(-1)} `,
        'm',
      ),
    );
  }, 60_000);

  it('refuses a missing file, a file that is not a backup, and damaged ones', async () => {
    expectRefusal(
      await cli(spare, ['restore', path.join(workDir, 'missing.gz')]),
      /missing\.gz is not a backup that can be restored: cannot read it: ENOENT/,
    );
    const text = path.join(workDir, 'notes.txt');
    writeFileSync(text, 'not a backup\n');
    expectRefusal(
      await cli(spare, ['restore', text]),
      /notes\.txt is not a backup that can be restored: it is not gzip-compressed/,
    );
    const plain = path.join(workDir, 'plain.gz');
    writeFileSync(plain, gzipSync('SELECT 1;\n'));
    expectRefusal(
      await cli(spare, ['restore', plain]),
      /plain\.gz is not a backup that can be restored: it is not a Subledger backup/,
    );
    // Cut short on disk: gzip finds it incomplete.
    const bytes = readFileSync(backupFile);
    const cut = path.join(workDir, 'cut.gz');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expectRefusal(
      await cli(spare, ['restore', cut]),
      /cut\.gz is not a backup that can be restored: it is damaged or incomplete \(gzip: unexpected end of file\)/,
    );
    // Whole as gzip, but a table's rows end in the middle.
    const short = edited('short.gz', (content) => content.subarray(0, content.length - 2000));
    expectRefusal(
      await cli(spare, ['restore', short]),
      /short\.gz is not a backup that can be restored: (it ends early, in the rows of|the rows of) /,
    );
    // Whole, but a row count that is not the section's.
    const miscounted = edited('miscounted.gz', (content) => {
      const text = content.toString('latin1');
      return Buffer.from(text.replace(/"users":2([,}])/, '"users":3$1'), 'latin1');
    });
    expectRefusal(
      await cli(spare, ['restore', miscounted]),
      /miscounted\.gz is not a backup that can be restored: users has 2 rows, not the 3 its trailer counts/,
    );
    // Nothing to restore from, or more than one file: usage.
    for (const args of [
      ['restore'],
      ['restore', backupFile, backupFile],
      ['backup', 'a.gz', 'b.gz'],
      ['backup', '--force'],
    ]) {
      const usage = await cli(spare, args);
      expect([args, usage.status, usage.stdout]).toEqual([args, 2, '']);
      expect(usage.stderr).toContain('restore FILE');
    }
  }, 120_000);

  it('refuses to write over an existing file, and to back up a database without Subledger in it', async () => {
    expectRefusal(
      await cli(spare, ['backup', backupFile]),
      /^backup refused: .* already exists: name another file\. No backup was written\.$/m,
    );
    const nothing = await cli(spare, ['backup', path.join(workDir, 'nothing.gz')]);
    expectRefusal(
      nothing,
      /^backup refused: (the database holds no Subledger schema .*|DATA_DIR .* holds no Subledger database yet): nothing to back up\./m,
    );
    expect(existsSync(path.join(workDir, 'nothing.gz'))).toBe(false);
  }, 60_000);
});

it('restores a backup of an earlier schema version: its migrations, then the newer ones when Subledger starts', async () => {
  const [older, newer] = [await provisionDatabase(), await provisionDatabase()];
  const file = path.join(workDir, 'earlier.gz');
  const upTo = MIGRATION_NAMES.indexOf('Migration20261125101146_households') - 1;
  try {
    const orm = await MikroORM.init<PostgreSqlDriver>(ormOptions(older.url, 2));
    try {
      await committedMigrator(orm).up({ to: MIGRATION_NAMES[upTo] });
    } finally {
      await orm.close(true);
    }
    await writeBackup(older.url, file);
    const summary = await restoreBackup(newer.url, await checkBackup(file));
    expect(summary).toMatchObject({
      schemaVersion: MIGRATION_NAMES[upTo],
      migrationsToApply: MIGRATION_NAMES.length - upTo - 1,
    });
    const applied = (url: string) =>
      withClient(url, async (client) =>
        (await client.query('select "name" from "mikro_orm_migrations" order by "id"')).rows.map((row) => row.name),
      );
    expect(await applied(newer.url)).toEqual(MIGRATION_NAMES.slice(0, upTo + 1));
    expect(await tablesOf({ database: newer } as Site)).not.toContain('households');
    const database = await openDatabase(newer.url, { databasePoolSize: 2 }, createLogger({ logLevel: 'silent' }));
    await database.close();
    expect(await applied(newer.url)).toEqual(MIGRATION_NAMES);
    expect(await tablesOf({ database: newer } as Site)).toContain('households');
  } finally {
    await older.drop();
    await newer.drop();
  }
}, 120_000);
