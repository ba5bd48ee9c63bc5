import ipaddr from 'ipaddr.js';
import type { Dispatcher } from 'undici';

import { isPublicAddress, outboundAgents } from '../platform/ssrf-guard';

export interface PostResult {
  statusCode: number;
  /** The first 1 KB of the answer. */
  excerpt: string;
}

const EXCERPT_BYTES = 1024;

/**
 * Keep-alive connections per origin, at most: a burst of deliveries to one receiver (a claimed batch of a few
 * hundred, several batches at once) queues on these instead of opening a socket, and a handshake, per POST.
 */
export const CONNECTIONS_PER_ORIGIN = 64;

/** How long a connection may take to open (the delivery timeout's default). */
const CONNECT_TIMEOUT_MS = 10_000;

/** The agents deliveries go through; undici's Agent holds a pool for each origin. */
const agentFor = outboundAgents({ connections: CONNECTIONS_PER_ORIGIN, connectTimeoutMs: CONNECT_TIMEOUT_MS });

/** undici's errors of a connection, an answer's headers or its body that took longer than allowed. */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * One request (a POST, or a PUT for Matrix), as deliveries need it: no redirects followed, 10 s to connect,
 * `timeoutMs` for the answer's headers and for the 1 KB of it that is read, counted from when the request
 * leaves (not while it waits for one of the origin's connections), and (unless private targets are
 * allowed) connections only to public addresses, checked on the resolved address at connect time. A timeout
 * rejects with an error named TimeoutError. Undici's dispatch interface, not `request`: a burst of
 * deliveries then builds no response stream, async iterator or AbortSignal per POST, which were a good part of
 * a delivery's CPU and garbage.
 */
export function sendOnce(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean; method?: 'POST' | 'PUT' },
): Promise<PostResult> {
  const url = new URL(target);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host))
    return Promise.reject(new Error(`refused: ${host} is an internal address`));
  const agent = agentFor(options.allowPrivate);
  const { timeoutMs } = options;
  return new Promise<PostResult>((resolve, reject) => {
    agent.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? 'POST',
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      },
      new ExcerptHandler(timeoutMs, resolve, (error) => reject(tlsFailure(error, url))),
    );
  });
}

/** Collects the status and the first 1 KB of one answer, and stops reading there or once its time is up. */
class ExcerptHandler implements Dispatcher.DispatchHandler {
  private startedAt = 0;
  private statusCode = 0;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  /** Enough was read: the abort that drops the rest (and the connection with it) is the answer's end. */
  private enough = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly resolve: (result: PostResult) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  onRequestStart(): void {
    this.startedAt = performance.now();
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.statusCode = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size >= EXCERPT_BYTES) {
      this.enough = true;
      controller.abort(new Error('excerpt read'));
    } else if (performance.now() - this.startedAt > this.timeoutMs) {
      // A body trickled a chunk at a time stays within bodyTimeout between chunks: the whole is bounded here.
      controller.abort(timeoutError(this.timeoutMs));
    }
  }

  onResponseEnd(): void {
    this.settle();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.enough) this.settle();
    else this.reject(TIMEOUT_CODES.has((error as { code?: string }).code ?? '') ? timeoutError(this.timeoutMs) : error);
  }

  private settle(): void {
    const excerpt =
      this.chunks.length === 0 ? '' : Buffer.concat(this.chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
    this.resolve({ statusCode: this.statusCode, excerpt });
  }
}

/** Node's names for a certificate OpenSSL did not accept (the handshake's other failures are ERR_SSL_…). */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * A failed TLS handshake said as one (OpenSSL's own words are a record layer's, such as "wrong version
 * number" for a server answering in plain HTTP): an https address is sent over verified TLS or not at all.
 */
function tlsFailure(error: Error, url: URL): Error {
  const code = (error as { code?: string }).code ?? '';
  if (url.protocol !== 'https:') return error;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER')
    return new Error(
      `TLS handshake with ${url.host} failed: it does not answer in TLS (plain HTTP?), and https is required`,
    );
  if (code.startsWith('ERR_SSL_') || CERTIFICATE_CODES.has(code))
    return new Error(`TLS handshake with ${url.host} failed: ${error.message} (${code})`);
  return error;
}

function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`timed out after ${timeoutMs} ms`), { name: 'TimeoutError' });
}
