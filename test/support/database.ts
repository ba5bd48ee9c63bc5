import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

/** A database of this test file's own. */
export interface TestDatabase {
  url: string;
  poolSize: number;
  drop(): Promise<void>;
}

/**
 * A fresh database on the run's PostgreSQL server (DATABASE_URL, or the embedded one jest's global setup
 * started), dropped afterwards.
 */
export async function provisionDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_POSTGRES_URL;
  if (!serverUrl)
    throw new Error('TEST_POSTGRES_URL is not set: run the tests through jest, whose global setup sets it');
  const name = `subledger_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    poolSize: 5,
    drop: () => adminQuery(serverUrl, `drop database if exists "${name}" with (force)`),
  };
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
