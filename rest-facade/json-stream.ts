import type { Response } from 'express';

/**
 * Bytes gathered before a write: big enough for few syscalls, and well under 128 KB. A string or buffer past
 * that is mapped and unmapped on its own (V8's large objects, glibc's mmap threshold), and the unmapping
 * cost ~180 µs a time here: a 155 KB list sent as one string spent more on it than on its JSON.
 */
const CHUNK_BYTES = 64 * 1024;

/**
 * Sends a JSON array presenting one item at a time, in chunks, waiting for the socket to drain between them.
 * Every answer of records goes this way: a year's calendar is tens of thousands of entries (tens of MB as
 * one string; 32 of them at once held 400 MB), and even a list page is past the size that costs a mapping.
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

/**
 * Waits for the socket to drain or close, leaving no listener behind (one chunk after another added them).
 * Plain listeners: an AbortController per wait made an AbortError, stack trace and all, every time.
 */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      res.off('drain', settle);
      res.off('close', settle);
      resolve();
    };
    res.on('drain', settle);
    res.on('close', settle);
  });
}
