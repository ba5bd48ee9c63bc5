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
 * A JSON array writing one item at a time, as chunks of about CHUNK_BYTES. Every answer of records is sent
 * this way: a year's calendar is tens of thousands of entries (tens of MB as one string; 32 of them at once
 * held 400 MB), and even a list page is past the size that costs a mapping.
 */
function* jsonArrayChunks<T>(items: readonly T[], toJson: (item: T) => string): Generator<Buffer> {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    text += (i === 0 ? '' : ',') + toJson(items[i]);
    if (text.length >= CHUNK_BYTES) {
      yield Buffer.from(text);
      text = '';
    }
  }
  yield Buffer.from(`${text}]`);
}

/** Writes the chunks, waiting for the socket to drain between them; stops when the client has gone. */
async function sendChunks(res: Response, chunks: Iterable<Buffer>): Promise<void> {
  res.status(200).type('application/json');
  let previous: Buffer | undefined;
  for (const chunk of chunks) {
    if (previous && !res.write(previous)) await drainedOrClosed(res);
    if (res.destroyed) return;
    previous = chunk;
  }
  res.end(previous);
}

/**
 * An answer of records through the answer cache: the kept chunks when the caller's data has not changed since
 * they were made, else a fresh answer, kept for the next request when it fits what may be kept; a larger one
 * is streamed as it is made. `request` names everything the answer depends on besides the user's data and the
 * date.
 */
export function sendKeptJsonArray<T>(
  res: Response,
  answers: AnswerCache,
  caller: Caller,
  request: string,
  load: () => Promise<readonly T[]>,
  present: (item: T) => unknown,
): Promise<void> {
  return sendKept(res, answers, caller, request, load, (item) => JSON.stringify(present(item)));
}

/** sendKeptJsonArray for items that are JSON texts already (made by the database). */
export function sendKeptJsonTexts(
  res: Response,
  answers: AnswerCache,
  caller: Caller,
  request: string,
  load: () => Promise<readonly string[]>,
): Promise<void> {
  return sendKept(res, answers, caller, request, load, (text) => text);
}

async function sendKept<T>(
  res: Response,
  answers: AnswerCache,
  caller: Caller,
  request: string,
  load: () => Promise<readonly T[]>,
  toJson: (item: T) => string,
): Promise<void> {
  let tooLarge: { made: Buffer[]; rest: Generator<Buffer> } | undefined;
  const kept = await answers.keptOrMade(caller, request, async (keepUpTo) => {
    const chunks = jsonArrayChunks(await load(), toJson);
    const made: Buffer[] = [];
    let bytes = 0;
    for (let next = chunks.next(); !next.done; next = chunks.next()) {
      made.push(next.value);
      bytes += next.value.length;
      if (bytes > keepUpTo) {
        tooLarge = { made, rest: chunks };
        return undefined;
      }
    }
    return { answer: made, bytes };
  });
  if (kept) return sendChunks(res, kept);
  const { made, rest } = tooLarge!;
  // The chunks made so far leave `made` as they are sent, so that none is held to the end of a long answer.
  await sendChunks(
    res,
    (function* () {
      yield* made.splice(0);
      yield* rest;
    })(),
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
