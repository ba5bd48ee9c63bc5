import type { Dispatcher } from 'undici';

import { checkEndpointUrl, outboundAgents } from '../platform/ssrf-guard';

/** What a vendor's logo may weigh at most, as served (an ICO of many sizes included). */
export const FETCH_MAX_BYTES = 1024 * 1024;
/** How long one fetch may take in all, redirects and body included. */
export const FETCH_TIMEOUT_MS = 10_000;
/** Redirects followed at most (a favicon often moves to https or to www.). */
const MAX_REDIRECTS = 3;

/** Why a logo could not be fetched, in words kept with the product (logo_fetches.error). */
export class FetchRefusal extends Error {}

/** Drops the rest of an answer not read (its connection with it); the abort that follows is no error of ours. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** The agents logo fetches go through: a few connections per vendor. */
const agentFor = outboundAgents({ connections: 4, connectTimeoutMs: FETCH_TIMEOUT_MS });

/** The URL of a hop, if it may be fetched: http(s), no credentials, and (unless allowed) no internal host. */
function checkedUrl(text: string, allowPrivate: boolean): URL {
  try {
    return checkEndpointUrl(text, allowPrivate);
  } catch (error) {
    throw new FetchRefusal(`refused: ${(error as Error).message}`);
  }
}

/**
 * The bytes of an image at `address`, fetched as a logo: only from public addresses unless `allowPrivate`
 * (checked on every hop and at connect time, so a redirect or a DNS answer cannot lead inside), at most
 * FETCH_MAX_BYTES, within FETCH_TIMEOUT_MS, and only an answer that says it is an image (`image/…`); what it
 * really is, makeLogo reads from the bytes. Anything else rejects with a FetchRefusal saying why.
 */
export async function fetchImage(address: string, allowPrivate: boolean): Promise<Buffer> {
  const { request } = require('undici') as typeof import('undici');
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let url = checkedUrl(address, allowPrivate);
  for (let hop = 0; ; hop++) {
    let answer: Dispatcher.ResponseData;
    try {
      answer = await request(url, {
        dispatcher: agentFor(allowPrivate),
        signal,
        headers: { accept: 'image/*', 'user-agent': 'Subledger logo fetch' },
      });
    } catch (error) {
      throw new FetchRefusal(signal.aborted ? `timed out after ${FETCH_TIMEOUT_MS} ms` : (error as Error).message);
    }
    const { statusCode, headers, body } = answer;
    const location = headers.location;
    if (statusCode >= 300 && statusCode < 400 && typeof location === 'string') {
      discard(body);
      if (hop === MAX_REDIRECTS) throw new FetchRefusal(`more than ${MAX_REDIRECTS} redirects`);
      url = checkedUrl(new URL(location, url).href, allowPrivate);
      continue;
    }
    if (statusCode !== 200) {
      discard(body);
      throw new FetchRefusal(`the answer was HTTP ${statusCode}`);
    }
    const type = String(headers['content-type'] ?? '').toLowerCase();
    if (!type.startsWith('image/')) {
      discard(body);
      throw new FetchRefusal(`not an image: the answer is ${type || 'of no declared type'}`);
    }
    if (Number(headers['content-length'] ?? 0) > FETCH_MAX_BYTES) {
      discard(body);
      throw new FetchRefusal(`too large: over ${FETCH_MAX_BYTES} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > FETCH_MAX_BYTES) {
          discard(body);
          throw new FetchRefusal(`too large: over ${FETCH_MAX_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof FetchRefusal) throw error;
      throw new FetchRefusal(signal.aborted ? `timed out after ${FETCH_TIMEOUT_MS} ms` : (error as Error).message);
    }
    return Buffer.concat(chunks);
  }
}
