import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';
import { isPublicAddress, publicOnlyLookup } from './ssrf-guard';

export interface PostResult {
  statusCode: number;
  /** The first 1 KB of the answer. */
  excerpt: string;
}

const EXCERPT_BYTES = 1024;

/**
 * Keep-alive connections per origin (undici's Agent holds a Pool for each), one agent per address rule: a burst
 * of deliveries to one receiver reuses a few sockets instead of a handshake a POST.
 */
const agents = {
  publicOnly: new Agent({ connect: { lookup: publicOnlyLookup } }),
  any: new Agent(),
};

/**
 * One request (a POST, or a PUT for Matrix), as deliveries need it: no redirects followed, an overall timeout, at most 1 KB of the answer read,
 * and (unless private targets are allowed) connections only to public addresses, checked on the resolved
 * address at connect time.
 */
export async function sendOnce(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean; method?: 'POST' | 'PUT' },
): Promise<PostResult> {
  const url = new URL(target);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) throw new Error(`refused: ${host} is an internal address`);
  const agent = options.allowPrivate ? agents.any : agents.publicOnly;
  const answer = await agent.request({
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: options.method ?? 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    // Enough read: the rest is not wanted (leaving the loop drops the connection, which cannot be reused with it unread).
    if (size >= EXCERPT_BYTES) break;
  }
  return { statusCode: answer.statusCode, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8') };
}
