import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { isPublicAddress, publicOnlyLookup } from './ssrf-guard';

export interface PostResult {
  statusCode: number;
  /** The first 1 KB of the answer. */
  excerpt: string;
}

const EXCERPT_BYTES = 1024;

/**
 * One POST, as deliveries need it: no redirects followed (node:http never follows them), an overall
 * timeout, at most 1 KB of the answer read, and (unless private targets are allowed) connections only to
 * public addresses, checked on the resolved address at connect time.
 */
export function postOnce(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const url = new URL(target);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
      reject(new Error(`refused: ${host} is an internal address`));
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => resolve({ statusCode: response.statusCode ?? 0, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8') });
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Enough read: the rest is not wanted, and the connection cannot be reused with it unread.
          if (size >= EXCERPT_BYTES) {
            finish();
            response.destroy();
          }
        });
        // A fully read answer leaves the connection to the agent's keep-alive pool for the next delivery.
        response.on('end', finish);
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
