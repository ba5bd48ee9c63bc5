import type { Request, Response } from 'express';

import { type AnswerCache, type KeptJson, keptJson } from '../src/platform/answer-cache';
import { type Caller, isConfirmed } from '../src/platform/caller';
import { AppError } from '../src/platform/errors';
import { bodyWriter, codingFor, sendCoded } from '../src/platform/web/compression';
import { sendKeptAnswer } from '../src/platform/web/kept-json';

/**
 * Bytes gathered before a write: big enough for few syscalls, and well under 128 KB. A string or buffer past
 * that is mapped and unmapped on its own (V8's large objects, glibc's mmap threshold), and the unmapping
 * cost ~180 µs a time here: a 155 KB list sent as one string spent more on it than on its JSON.
 */
const CHUNK_BYTES = 64 * 1024;

/**
 * An answer as `make` makes it: its JSON text, or its chunks, kept when they fit (see sendKeptJson); or chunks
 * still being made (an iterable that is not an array), sent as they come and never kept.
 */
export type MadeJson = string | readonly Buffer[] | Iterable<Buffer>;

/**
 * A JSON array presenting one item at a time, as chunks of about CHUNK_BYTES. Every answer of records is sent
 * this way: a year's calendar is tens of thousands of entries (tens of MB as one string; 32 of them at once
 * held 400 MB), and even a list page is past the size that costs a mapping.
 */
function* jsonArrayChunks<T>(items: readonly T[], present: (item: T) => unknown): Generator<Buffer> {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    text += (i === 0 ? '' : ',') + JSON.stringify(present(items[i]));
    if (text.length >= CHUNK_BYTES) {
      yield Buffer.from(text);
      text = '';
    }
  }
  yield Buffer.from(`${text}]`);
}

/** Whether If-None-Match names `tag` (weak comparison: W/ aside). */
function notModified(req: Request, tag: string): boolean {
  const wanted = req.headers['if-none-match'];
  const opaque = tag.replace(/^W\//, '');
  return wanted !== undefined && wanted.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

/**
 * An answer of records through the answer cache, with an ETag (see AnswerCache.tagOf): 304 and no read at all
 * when If-None-Match names it; else the kept answer when the caller's data has not changed since it was made,
 * in the coding asked for (compressed once, then kept too); else the answer `make` makes now, kept for the next
 * requests when it is at most `keepUpTo` bytes, or sent as made (an iterable as it comes). `request` names
 * everything the answer depends on besides the user's data and the date.
 */
export async function sendKeptJson(
  res: Response,
  req: Request,
  answers: AnswerCache,
  caller: Caller,
  request: string,
  make: (keepUpTo: number) => Promise<MadeJson>,
): Promise<void> {
  // A revalidation, and a kept answer or one being made, need the caller's version before anything is read;
  // otherwise the read that makes the answer may check the caller's token itself (see identifyCaller).
  const versionFirst = req.headers['if-none-match'] !== undefined || answers.holds(caller, request);
  if (versionFirst && !(await isConfirmed(caller))) throw AppError.unauthenticated();
  const tag = answers.tagOf(caller, request);
  if (tag !== undefined && notModified(req, tag)) {
    sendCoded(res, 'identity');
    res.status(304).setHeader('ETag', tag).end();
    return;
  }
  let held: KeptJson | undefined;
  let streamed: Iterable<Buffer> | undefined;
  const kept = await answers.keptOrMade(caller, request, async (keepUpTo) => {
    const made = await make(keepUpTo);
    if (typeof made !== 'string' && !Array.isArray(made)) {
      streamed = made;
      return undefined;
    }
    const answer = keptJson(made as string | readonly Buffer[]);
    if (answer.bytes <= keepUpTo) return answer;
    held = answer;
    return undefined;
  });
  // Only on the answer itself: an error is no representation to revalidate. A read that checked the caller's
  // token found the version in the same statement as the answer's data.
  const sentTag = tag ?? answers.tagOf(caller, request);
  if (sentTag !== undefined) res.setHeader('ETag', sentTag);
  // An answer made whole goes out whole, with its length, whether kept or not: sent as chunks that each waited
  // for the socket to drain, the afresh list spent 2.8 ms more CPU per answer than the ceiling did.
  const whole = kept ?? held;
  if (whole) return sendKeptAnswer(req, res, answers, caller, request, whole);
  await sendChunks(req, res, streamed!);
}

/**
 * sendKeptJson for an array of records presented one by one: made as chunks, kept when they fit, else
 * streamed as they are made (a year's calendar), holding none.
 */
export async function sendKeptJsonArray<T>(
  res: Response,
  req: Request,
  answers: AnswerCache,
  caller: Caller,
  request: string,
  load: () => Promise<readonly T[]>,
  present: (item: T) => unknown,
): Promise<void> {
  await sendKeptJson(res, req, answers, caller, request, async (keepUpTo) => {
    const chunks = jsonArrayChunks(await load(), present);
    const made: Buffer[] = [];
    let bytes = 0;
    for (let next = chunks.next(); !next.done; next = chunks.next()) {
      made.push(next.value);
      bytes += next.value.length;
      if (bytes > keepUpTo)
        // The chunks made so far leave `made` as they are sent, so that none is held to the end of a long answer.
        return (function* () {
          yield* made.splice(0);
          yield* chunks;
        })();
    }
    return made;
  });
}

/**
 * Writes the chunks of an answer still being made, compressed as they go when the client asks for it, waiting
 * for the socket (or the compressor) to drain between them; stops when the client has gone.
 */
async function sendChunks(req: Request, res: Response, chunks: Iterable<Buffer>): Promise<void> {
  const coding = codingFor(req, undefined);
  sendCoded(res, coding);
  res.status(200).type('application/json');
  const writer = bodyWriter(res, coding);
  let previous: Buffer | undefined;
  for (const chunk of chunks) {
    if (previous && !writer.write(previous)) await drainedOrClosed(writer);
    if (writer.destroyed) return;
    previous = chunk;
  }
  writer.end(previous);
}

/**
 * Waits for the writer to drain or close, leaving no listener behind (one chunk after another added them).
 * Plain listeners: an AbortController per wait made an AbortError, stack trace and all, every time.
 */
function drainedOrClosed(writer: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      writer.off('drain', settle);
      writer.off('close', settle);
      resolve();
    };
    writer.on('drain', settle);
    writer.on('close', settle);
  });
}
