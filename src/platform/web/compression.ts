import type { ServerResponse } from 'node:http';
import { pipeline, type Writable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/** The content codings answers are sent in; `identity` is none. */
export type Coding = 'identity' | 'gzip' | 'br';

/** Answers smaller than this go as they are: compressing them saves less than its headers and time cost. */
const THRESHOLD_BYTES = 1024;

/** Brotli's default quality (11) costs ~20x the CPU of quality 4 for a few percent less; 4 is gzip's speed and smaller. */
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

/** Responses that chose their content coding themselves (kept answers, streamed lists): the middleware leaves them be. */
const codedByThemselves = new WeakSet<ServerResponse>();

/** JSON and its kinds (application/graphql-response+json): the answers compressed. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json(?:;|$)/i;

/**
 * Compresses JSON answers of at least THRESHOLD_BYTES for clients that accept br or gzip. Only JSON: the
 * pages' scripts (megabytes, cached a day by browsers) would be compressed anew on every request, and event
 * streams would have their events held back. Answers already coded (Content-Encoding set, as kept answers
 * are) and answers that chose their coding themselves (see sendCoded) are left as they are.
 */
export function compressAnswers(): RequestHandler {
  const compress = compression({
    threshold: THRESHOLD_BYTES,
    brotli: BROTLI_OPTIONS,
    filter: (_req, res) => !codedByThemselves.has(res) && JSON_TYPE.test(String(res.getHeader('Content-Type') ?? '')),
  });
  // A client that names none of its codings gets nothing compressed, so its request skips what the middleware sets
  // up for each one (a tenth of a kept list's allocations). Its answer then goes without `Vary: Accept-Encoding`:
  // a cache that keeps it holds the uncompressed form, which suits every client.
  return (req, res, next) =>
    NAMES_A_CODING.test(req.headers['accept-encoding'] ?? '') ? compress(req, res, next) : next();
}

/** Whether Accept-Encoding names a coding the middleware sends (even at q=0: it reads the header properly). */
const NAMES_A_CODING = /\b(?:br|gzip|deflate)\b/i;

/**
 * The coding to send `bytes` of JSON in (undefined: not known yet, as for a streamed answer): the one of br and
 * gzip the client prefers, unless the answer is too small to gain from it.
 */
export function codingFor(req: Request, bytes: number | undefined): Coding {
  if (bytes !== undefined && bytes < THRESHOLD_BYTES) return 'identity';
  return (req.acceptsEncodings('br', 'gzip') || 'identity') as Coding;
}

/**
 * Marks `res` as sent in `coding`, chosen by the sender rather than by the middleware, with the headers that
 * says so (Vary whatever the coding: the answer depends on Accept-Encoding).
 */
export function sendCoded(res: Response, coding: Coding): void {
  codedByThemselves.add(res);
  res.vary('Accept-Encoding');
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
}

/**
 * What to write a body sent in `coding` (see sendCoded) to as it is made: the response itself, or a compressor
 * piped into it. A client gone mid-answer destroys the compressor too (the error is theirs, nothing to report).
 */
export function bodyWriter(res: Response, coding: Coding): Writable | Response {
  if (coding === 'identity') return res;
  const compressor = coding === 'br' ? zlib.createBrotliCompress(BROTLI_OPTIONS) : zlib.createGzip();
  pipeline(compressor, res, () => undefined);
  return compressor;
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** The bytes compressed in `coding` at once, off the event loop (zlib's thread pool). */
export function compress(bytes: Buffer, coding: Exclude<Coding, 'identity'>): Promise<Buffer> {
  return coding === 'br'
    ? brotli(bytes, {
        ...BROTLI_OPTIONS,
        params: { ...BROTLI_OPTIONS.params, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      })
    : gzip(bytes);
}
