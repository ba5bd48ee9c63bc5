import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres';

declare global {
  // eslint-disable-next-line no-var
  var pgliteFactory: { server: Server; instances: Map<string, EmbeddedPostgres> } | undefined;
}

/**
 * Without DATABASE_URL the tests run on PGlite. A PGlite instance is started here, in jest's parent process,
 * for every test file that asks (POST /instances), so each file has a database of its own and files can run
 * in parallel; DELETE /instances/<id> stops it.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const instances = new Map<string, EmbeddedPostgres>();
  let next = 0;
  const server = createServer((req, res) => {
    const answer = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'POST' && req.url === '/instances') {
      startEmbeddedPostgres(null).then(
        (instance) => {
          const id = String(++next);
          instances.set(id, instance);
          answer(201, { id, url: instance.url, maxConnections: instance.maxConnections });
        },
        (error: Error) => answer(500, { error: error.message }),
      );
      return;
    }
    const match = /^\/instances\/(\d+)$/.exec(req.url ?? '');
    if (req.method === 'DELETE' && match) {
      const instance = instances.get(match[1]);
      instances.delete(match[1]);
      (instance ? instance.stop() : Promise.resolve()).then(() => answer(204, null), () => answer(204, null));
      return;
    }
    answer(404, { error: 'unknown' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.PGLITE_FACTORY_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  globalThis.pgliteFactory = { server, instances };
}
