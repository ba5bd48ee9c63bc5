import { createServer } from 'node:net';

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls until `check` holds; fails naming `what` after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what = 'the condition',
  timeoutMs = 15_000,
): Promise<void> {
  for (
    const deadline = Date.now() + timeoutMs;
    !(await check());
    await new Promise((resolve) => setTimeout(resolve, 50))
  ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}
