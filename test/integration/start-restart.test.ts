import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from 'pg';

import { provisionDatabase, type TestDatabase } from '../support/database';
import { root, startService, stopService } from '../support/service-process';
import { clockEnvironment } from '../support/test-clock';
import { freePort } from '../support/wait';

/**
 * The service as `npm start` runs it (the built dist/, started by `pretest`): a separate process, with the
 * embedded PostgreSQL server under a DATA_DIR when the suite runs embedded, or its own database on DATABASE_URL.
 */
let dataDir: string;
let database: TestDatabase | null = null;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'subledger-data-'));
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...clockEnvironment(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  if (process.env.DATABASE_URL) {
    database = await provisionDatabase();
    env.DATABASE_URL = database.url;
  }
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
});
afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const login = (port: number, email: string, password: string) => {
  const form = new FormData();
  form.set('email', email);
  form.set('password', password);
  return fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, { method: 'POST', body: form });
};

it('starts within 30 s, keeps what was written across a restart, and takes users from the CLI', async () => {
  const created = spawnSync(
    process.execPath,
    [
      'dist/src/cli.js',
      'user:create',
      '--email',
      'cli@example.com',
      '--password',
      'from the shell',
      '--name',
      'Cli User',
    ],
    { cwd: root, env, encoding: 'utf8' },
  );
  expect(created.stderr).toBe('');
  expect(created.stdout).toMatch(/^created user \d+ <cli@example.com>/);
  expect(created.status).toBe(0);
  const ratesFile = path.join(dataDir, 'rates.json');
  writeFileSync(ratesFile, JSON.stringify({ asOf: '2026-11-20', rates: { EUR: '0.5' } }));
  const imported = spawnSync(process.execPath, ['dist/src/cli.js', 'rates:import', '--file', ratesFile], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  expect(imported.stdout).toMatch(/^imported 1 exchange rates/);
  expect(imported.status).toBe(0);
  const refused = spawnSync(process.execPath, ['dist/src/cli.js', 'rates:import'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  expect(refused.status).toBe(2);
  expect(refused.stderr).toContain('rates:import --file');

  const port = await freePort();
  const first = await startService(env, port);
  expect(first.startedInMs).toBeLessThan(30_000);
  const signUp = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query:
        'mutation { signUp(input: {email: "kept@example.com", password: "survives restart", name: "Kept"}) { token } }',
    }),
  });
  expect(((await signUp.json()) as { data: { signUp: { token: string } } }).data.signUp.token).toEqual(
    expect.any(String),
  );
  expect(await stopService(first)).toBe(0);

  const second = await startService(env, port);
  try {
    expect((await login(port, 'kept@example.com', 'survives restart')).status).toBe(201);
    // The CLI beside the running service (with the embedded default: on the server that service owns).
    const beside = spawnSync(
      process.execPath,
      [
        'dist/src/cli.js',
        'user:create',
        '--email',
        'beside@example.com',
        '--password',
        'while running',
        '--name',
        'Beside',
      ],
      { cwd: root, env, encoding: 'utf8' },
    );
    expect(beside.stdout).toMatch(/^created user \d+ <beside@example.com>/);
    expect((await login(port, 'beside@example.com', 'while running')).status).toBe(201);
    // The URL a backup tool connects with.
    const url = spawnSync(process.execPath, ['dist/src/cli.js', 'db:url'], { cwd: root, env, encoding: 'utf8' });
    expect(url.status).toBe(0);
    const client = new Client({ connectionString: url.stdout.trim() });
    await client.connect();
    const { rows } = await client.query<{ email: string }>('select "email" from "users" order by "email"');
    await client.end();
    expect(rows.map((row) => row.email)).toEqual(['beside@example.com', 'cli@example.com', 'kept@example.com']);
    const cliLogin = await login(port, 'cli@example.com', 'from the shell');
    expect(cliLogin.status).toBe(201);
    const session = (await cliLogin.json()) as { user: { name: string }; token: string };
    expect(session.user.name).toBe('Cli User');
    // The imported rate is the one base_value uses: 10 EUR at 0.5 per dollar is 20 USD.
    const form = new FormData();
    for (const [name, value] of Object.entries({
      brand_id: '1',
      type: '1',
      price: '10',
      price_type: 'EUR',
      billing_type: '2',
      billing_frequency: '1',
      billing_cycle: '3',
      payment_date: '2026-01-01',
      status: '1',
      recurring: '1',
    }))
      form.set(name, value);
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/subscriptions`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(((await created.json()) as { subscription: { base_value: string } }).subscription.base_value).toBe('20.00');
  } finally {
    expect(await stopService(second)).toBe(0);
  }
});

it('refuses to start on a bad configuration, naming the variable', () => {
  const result = spawnSync(process.execPath, ['dist/src/main.js'], {
    cwd: root,
    env: { ...env, PORT: 'not-a-port' },
    encoding: 'utf8',
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('PORT must be a whole number');
});

it.each([
  ['one API process', '1'],
  ['the default, a supervisor and its API processes', undefined],
])('says the port is in use when another process holds it, and exits 1 (%s)', async (_name, processes) => {
  // An HTTP server, so that the readiness probe is answered (503) while the service gives up.
  const holder = createServer((_req, res) => res.writeHead(503).end());
  await new Promise<void>((resolve) => holder.listen(0, '0.0.0.0', resolve));
  const { port } = holder.address() as AddressInfo;
  const ownData = mkdtempSync(path.join(tmpdir(), 'subledger-data-'));
  try {
    const starting = startService(
      { ...env, DATA_DIR: ownData, ...(processes ? { WEB_CONCURRENCY: processes } : {}) },
      port,
    );
    await expect(starting).rejects.toThrow(`PORT ${port} is in use by another process`);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
    rmSync(ownData, { recursive: true, force: true });
  }
});
