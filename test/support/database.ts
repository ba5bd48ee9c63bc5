import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A database of this test file's own. */
export interface TestDatabase {
  url: string;
  poolSize: number;
  /** true on PGlite, false on a real PostgreSQL server. */
  embedded: boolean;
  drop(): Promise<void>;
}

/**
 * With DATABASE_URL: a fresh database on that server, dropped afterwards. Without it: a fresh PGlite from the
 * factory that jest's global setup runs.
 */
export async function provisionDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `subledger_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      poolSize: 5,
      embedded: false,
      drop: () => adminQuery(serverUrl, `drop database if exists "${name}" with (force)`),
    };
  }
  const factory = process.env.PGLITE_FACTORY_URL;
  if (!factory) throw new Error('Neither DATABASE_URL nor the PGlite factory of the jest global setup is there');
  const response = await fetch(`${factory}/instances`, { method: 'POST' });
  if (!response.ok) throw new Error(`PGlite factory failed: ${await response.text()}`);
  const instance = (await response.json()) as { id: string; url: string; maxConnections: number };
  return {
    url: instance.url,
    poolSize: instance.maxConnections,
    embedded: true,
    drop: async () => {
      await fetch(`${factory}/instances/${instance.id}`, { method: 'DELETE' });
    },
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
