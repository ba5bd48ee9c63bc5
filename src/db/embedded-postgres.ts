import fs from 'node:fs';
import { PGlite, type Extension } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// The package ships a CommonJS build of its contrib extensions but only ESM type declarations for them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

/**
 * PostgreSQL compiled to WASM, persisted in a folder and served on a loopback port, so the same
 * MikroORM driver, SQL and migrations serve the embedded default and a real server.
 */
export interface EmbeddedPostgres {
  url: string;
  /** PGlite has one session shared by every socket connection: the pool must stay at or under this. */
  maxConnections: number;
  stop(): Promise<void>;
}

const MAX_CONNECTIONS = 4;

/** dataDir null: in memory (tests). */
export async function startEmbeddedPostgres(dataDir: string | null): Promise<EmbeddedPostgres> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: MAX_CONNECTIONS });
  await server.start();
  return {
    url: `postgresql://postgres@${server.getServerConn()}/postgres`,
    maxConnections: MAX_CONNECTIONS,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
