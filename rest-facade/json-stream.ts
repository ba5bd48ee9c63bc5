import { once } from 'node:events';
import type { Response } from 'express';

/** Bytes gathered before a write: big enough for few syscalls, small enough to keep memory flat. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Sends a JSON array presenting one item at a time, waiting for the socket to drain between chunks. A year's
 * calendar is tens of thousands of entries (tens of MB as one string); 32 of them at once held 400 MB.
 */
export async function sendJsonArray<T>(res: Response, items: readonly T[], present: (item: T) => unknown): Promise<void> {
  res.status(200).type('application/json');
  let chunk = '[';
  for (let i = 0; i < items.length; i++) {
    chunk += (i === 0 ? '' : ',') + JSON.stringify(present(items[i]));
    if (chunk.length >= CHUNK_BYTES) {
      if (!res.write(chunk)) await drainedOrClosed(res);
      // The client went away: nothing more to send.
      if (res.destroyed) return;
      chunk = '';
    }
  }
  res.end(`${chunk}]`);
}

/** Waits for the socket to drain or close, leaving no listener behind (one chunk after another added them). */
async function drainedOrClosed(res: Response): Promise<void> {
  const done = new AbortController();
  const settle = (event: string) => once(res, event, { signal: done.signal }).catch(() => undefined);
  try {
    await Promise.race([settle('drain'), settle('close')]);
  } finally {
    done.abort();
  }
}
