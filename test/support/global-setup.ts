import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type EmbeddedPostgres, startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres';

declare global {
  var embeddedPostgres: { server: EmbeddedPostgres; dataDir: string } | undefined;
}

/**
 * The PostgreSQL server the test files make their databases on (TEST_POSTGRES_URL): DATABASE_URL when set,
 * otherwise one embedded server started here for the whole run, the way `npm start` starts it.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env.TEST_POSTGRES_URL = process.env.DATABASE_URL;
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'subledger-test-postgres-'));
  const server = await startEmbeddedPostgres(dataDir);
  process.env.TEST_POSTGRES_URL = server.url;
  globalThis.embeddedPostgres = { server, dataDir };
}
