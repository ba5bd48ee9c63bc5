import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const embedded = globalThis.embeddedPostgres;
  if (!embedded) return;
  await embedded.server.stop();
  rmSync(embedded.dataDir, { recursive: true, force: true });
}
