import type { Response } from 'express';
import type { AnswerCache } from '../src/platform/answer-cache';
import type { Caller } from '../src/platform/caller';

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
 * Returns the chunks sent when the whole answer went out within `keepUpTo` bytes, else null.
 */
export async function sendJsonArray<T>(res: Response, items: readonly T[], present: (item: T) => unknown, keepUpTo = 0): Promise<Buffer[] | null> {
  res.status(200).type('application/json');
  let sent: Buffer[] | null = keepUpTo > 0 ? [] : null;
  let sentBytes = 0;
  const send = async (text: string, last: boolean) => {
    const chunk = Buffer.from(text);
    sentBytes += chunk.length;
    if (sent && sentBytes <= keepUpTo) sent.push(chunk);
    else sent = null;
    if (last) res.end(chunk);
    else if (!res.write(chunk)) await drainedOrClosed(res);
  };
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    text += (i === 0 ? '' : ',') + JSON.stringify(present(items[i]));
    if (text.length >= CHUNK_BYTES) {
      await send(text, false);
      // The client went away: nothing more to send.
      if (res.destroyed) return null;
      text = '';
    }
  }
  await send(`${text}]`, true);
  return sent;
}

/**
 * An answer of records through the answer cache: the kept bytes when the caller's data has not changed since
 * they were made, else a fresh answer (kept for the next request). `request` names everything the answer
 * depends on besides the user's data and the date.
 */
export async function sendKeptJsonArray<T>(
  res: Response,
  answers: AnswerCache,
  caller: Caller,
  request: string,
  load: () => Promise<readonly T[]>,
  present: (item: T) => unknown,
): Promise<void> {
  const kept = answers.get<Buffer[]>(caller, request);
  if (kept) {
    res.status(200).type('application/json');
    for (let i = 0; i < kept.length - 1; i++) {
      if (!res.write(kept[i])) await drainedOrClosed(res);
      if (res.destroyed) return;
    }
    res.end(kept[kept.length - 1]);
    return;
  }
  const quarterHour = answers.quarterHour();
  const chunks = await sendJsonArray(res, await load(), present, answers.maxEntryBytes);
  if (chunks)
    answers.keep(
      caller,
      request,
      chunks,
      chunks.reduce((sum, chunk) => sum + chunk.length, 0),
      quarterHour,
    );
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
