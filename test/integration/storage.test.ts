import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { MikroORM } from '@mikro-orm/core';

import { committedMigrator, MIGRATION_NAMES } from '../../src/db/migrations';
import { openDatabase, ormOptions } from '../../src/db/orm';
import { createLogger } from '../../src/platform/logger';
import { provisionDatabase } from '../support/database';
import { sql, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp();
});
afterAll(() => testApp.close());

it('records every committed migration, and names every migration file, in order', async () => {
  const files = readdirSync(path.resolve(__dirname, '../../src/db/migrations'))
    .filter((file) => /^Migration\d+_\w+\.ts$/.test(file))
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();
  expect(files.length).toBeGreaterThan(20);
  expect(MIGRATION_NAMES).toEqual(files);
  const rows = await sql<{ name: string }>(testApp, 'select "name" from "mikro_orm_migrations" order by "id"');
  expect(rows.map((row) => row.name)).toEqual(files);
});

it("keeps no duplicate of a record's columns (the answers emit pricing_type, currency_code and url from type, price_type and homepage)", async () => {
  const columns = await sql<{ column_name: string }>(
    testApp,
    `select "column_name" from information_schema.columns where "table_name" = 'subscriptions'`,
  );
  const names = columns.map((column) => column.column_name);
  expect(names).toEqual(expect.arrayContaining(['type', 'price_type', 'homepage']));
  expect(names.filter((name) => ['pricing_type', 'currency_code', 'url'].includes(name))).toEqual([]);
});

it("maps existing alerts and records to the original's codes, keeping what they meant", async () => {
  const database = await provisionDatabase();
  const orm = await MikroORM.init(ormOptions(database.url, 2));
  try {
    await committedMigrator(orm).up({ to: 'Migration20261122160000_list_order_index' });
    const run = (text: string, params: unknown[] = []) => orm.em.getConnection().execute(text, params);
    await run(
      `insert into "users" ("email", "password_hash", "name", "first_name", "last_name") values ('old@example.com', 'x', 'Old', 'Old', '')`,
    );
    const [{ id: userId }] = await run(`select "id" from "users"`);
    // Old codes: condition 1 payment, 2 refund, 3 both; type 1 e-mail, 2 browser, 3 webhook, 4 every; subjects 1 subscriptions, 2 lifetime, 3 all.
    for (const [name, condition, type, subjects] of [
      ['payment by mail', 1, 1, 1],
      ['refund in browser', 2, 2, 2],
      ['both by webhook', 3, 3, 3],
      ['every channel', 1, 4, 3],
    ] as const) {
      await run(
        `insert into "alerts" ("user_id", "alert_name", "time_period", "time", "alert_condition", "alert_type", "timezone", "alert_subs_type") values (?, ?, 1, '09:00', ?, ?, 'UTC', ?)`,
        [userId, name, condition, type, subjects],
      );
    }
    await run(
      `insert into "subscriptions" ("user_id", "product_id", "type", "pricing_type", "image", "product_name", "price", "price_type", "recurring", "payment_date", "billing_frequency", "billing_cycle", "billing_type", "status", "timezone", "created_by")
               values (?, 1, 4, 4, '', 'Revenue', 1, 'USD', 1, '2026-01-01', 1, 3, 2, 1, 'UTC', ?)`,
      [userId, userId],
    );
    await committedMigrator(orm).up();
    const alerts = await run(
      `select "alert_name", "alert_condition", "alert_type", "alert_subs_type" from "alerts" order by "id"`,
    );
    expect(alerts).toEqual([
      { alert_name: 'Default alert', alert_condition: 2, alert_type: 1, alert_subs_type: 1 },
      { alert_name: 'payment by mail', alert_condition: 2, alert_type: 2, alert_subs_type: 1 },
      { alert_name: 'refund in browser', alert_condition: 3, alert_type: 3, alert_subs_type: 3 },
      { alert_name: 'both by webhook', alert_condition: 1, alert_type: 4, alert_subs_type: 1 },
      { alert_name: 'every channel', alert_condition: 2, alert_type: 1, alert_subs_type: 1 },
    ]);
    // pricing_type (mapped with type) is dropped by a later migration as a duplicate of type.
    expect(await run(`select "type" from "subscriptions"`)).toEqual([{ type: 1 }]);
  } finally {
    await orm.close(true);
    await database.drop();
  }
});

it('seeds the system default alert as id 1, owned by no one', async () => {
  const [alert] = await sql<Record<string, unknown>>(testApp, 'select * from "alerts" where "id" = 1');
  expect(alert).toMatchObject({ id: 1, user_id: null, is_default: 1, time: '09:00:00', timezone: 'UTC' });
});

it('seeds at least 15 global categories, with id 1 for uncategorised records', async () => {
  const rows = await sql<{ id: number; name: string }>(
    testApp,
    'select "id", "name" from "product_categories" where "user_id" is null order by "id"',
  );
  expect(rows.length).toBeGreaterThanOrEqual(15);
  expect(rows[0]).toEqual({ id: 1, name: 'Other' });
});

it('seeds a catalogue of at least 300 products with brand, homepage, category, price, currency, cycle and refund days', async () => {
  const rows = await sql<Record<string, unknown>>(testApp, 'select * from "products" where "owner_id" is null');
  expect(rows.length).toBeGreaterThanOrEqual(300);
  const names = new Set(rows.map((row) => row.product_name));
  expect(names.size).toBe(rows.length);
  for (const name of [
    'Netflix Standard',
    'Spotify Premium Individual',
    'ChatGPT Plus',
    'NordVPN Standard',
    'Microsoft 365 Personal',
  ]) {
    expect(names.has(name)).toBe(true);
  }
  for (const row of rows) {
    expect(row.brandname).toEqual(expect.any(String));
    expect(row.url).toMatch(/^https:\/\/[a-z0-9.-]+\/$/);
    expect(row.price1_value).toMatch(/^\d+\.\d{2}$/);
    expect(Number(row.price1_value)).toBeGreaterThan(0);
    expect(row.currency_code).toMatch(/^[A-Z]{3}$/);
    expect([2, 3, 4]).toContain(row.billing_cycle);
    expect(Number.isInteger(row.refund_days)).toBe(true);
  }
  const categories = new Set(rows.map((row) => row.category_id));
  expect(categories.size).toBeGreaterThanOrEqual(15);
});

it('seeds exchange rates for at least 30 currencies against USD, with their date, covering every catalogue currency', async () => {
  const rates = await sql<{ currency: string; per_usd: string; as_of: string }>(
    testApp,
    'select * from "exchange_rates"',
  );
  expect(rates.length).toBeGreaterThanOrEqual(30);
  expect(rates.find((rate) => rate.currency === 'USD')?.per_usd).toBe('1.00000000');
  for (const rate of rates) expect(rate.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const missing = await sql<{ currency_code: string }>(
    testApp,
    'select distinct "currency_code" from "products" where "currency_code" not in (select "currency" from "exchange_rates")',
  );
  expect(missing).toEqual([]);
});

it('has the indexes the reads need (live records by owner + payment date + id, owner + status, trigram search)', async () => {
  const rows = await sql<{ indexname: string; indexdef: string }>(
    testApp,
    `select "indexname", "indexdef" from pg_indexes where schemaname = 'public'`,
  );
  const byName = new Map(rows.map((row) => [row.indexname, row.indexdef]));
  expect(byName.get('subscriptions_user_live_payment_date')).toMatch(
    /\(user_id, payment_date, id\) WHERE \(deleted_at IS NULL\)/,
  );
  expect(byName.has('subscriptions_user_payment_date')).toBe(false);
  expect(byName.get('subscriptions_user_status')).toMatch(/\(user_id, status\)/);
  expect(byName.get('subscriptions_search_trgm')).toMatch(/gin_trgm_ops/);
  expect(byName.get('products_name_trgm')).toMatch(/gin_trgm_ops/);
});

it('returns dates and timestamps as strings, never Date objects', async () => {
  const [row] = await sql<{ created_at: unknown; as_of: unknown }>(
    testApp,
    'select a."created_at", r."as_of" from "alerts" a, "exchange_rates" r where a."id" = 1 limit 1',
  );
  expect(typeof row.created_at).toBe('string');
  expect(typeof row.as_of).toBe('string');
});

it('lets several processes start on one fresh database at once: one migrates, the others wait and find it done', async () => {
  const database = await provisionDatabase();
  try {
    const opened = await Promise.all(
      [1, 2, 3].map(() => openDatabase(database.url, { databasePoolSize: 2 }, createLogger({ logLevel: 'silent' }))),
    );
    const rows = await opened[0].orm.em
      .getConnection()
      .execute<Array<{ name: string }>>('select "name" from "mikro_orm_migrations"');
    expect(rows.map((row) => row.name).sort()).toEqual([...MIGRATION_NAMES].sort());
    await Promise.all(opened.map((db) => db.close()));
  } finally {
    await database.drop();
  }
});

it('opens a database that has every migration without loading the migrator, and one that lacks some with it', async () => {
  const database = await provisionDatabase();
  // A process of its own, as the service runs (the built code), so that what it loads is its own.
  const open = () =>
    execFileSync(
      process.execPath,
      [
        '-e',
        `require('reflect-metadata');
         const { openDatabase } = require('./dist/src/db/orm');
         const { createLogger } = require('./dist/src/platform/logger');
         openDatabase(process.env.URL, { databasePoolSize: 2 }, createLogger({ logLevel: 'silent' })).then(async (db) => {
           console.log(Object.keys(require.cache).some((file) => file.endsWith('/node_modules/@mikro-orm/migrations/Migrator.js')));
           await db.close();
         });`,
      ],
      { cwd: path.resolve(__dirname, '../..'), env: { PATH: process.env.PATH, URL: database.url } },
    )
      .toString()
      .trim();
  try {
    expect(open()).toBe('true');
    expect(open()).toBe('false');
  } finally {
    await database.drop();
  }
});
