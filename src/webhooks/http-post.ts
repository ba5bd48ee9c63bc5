import ipaddr from 'ipaddr.js';
import { Agent, type Dispatcher } from 'undici';
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
 * One request (a POST, or a PUT for Matrix), as deliveries need it: no redirects followed, given up when
 * `signal` aborts (a batch of deliveries shares one deadline), at most 1 KB of the answer read, and (unless
 * private targets are allowed) connections only to public addresses, checked on the resolved address at
 * connect time. Undici's dispatch interface, not `request`: a burst of deliveries then builds no response
 * stream, async iterator or timer per POST, which were a good part of a delivery's CPU and garbage.
 */
export function sendOnce(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { signal: AbortSignal; allowPrivate: boolean; method?: 'POST' | 'PUT' },
): Promise<PostResult> {
  const url = new URL(target);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) return Promise.reject(new Error(`refused: ${host} is an internal address`));
  const { signal } = options;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  const agent = options.allowPrivate ? agents.any : agents.publicOnly;
  return new Promise<PostResult>((resolve, reject) => {
    const answer = new ExcerptHandler(signal, resolve, reject);
    agent.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method: options.method ?? 'POST', headers, body }, answer);
  });
}

/** Collects the status and the first 1 KB of one answer; stops reading there, or when the signal aborts. */
class ExcerptHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private statusCode = 0;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  /** Enough was read: the abort that drops the rest (and the connection with it) is the answer's end. */
  private enough = false;
  private readonly onAbort = () => this.controller?.abort(this.signal.reason as Error);

  constructor(
    private readonly signal: AbortSignal,
    private readonly resolve: (result: PostResult) => void,
    private readonly reject: (error: Error) => void,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(this.signal.reason as Error);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.statusCode = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < EXCERPT_BYTES) return;
    this.enough = true;
    controller.abort(new Error('excerpt read'));
  }

  onResponseEnd(): void {
    this.settle();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.enough) this.settle();
    else {
      this.signal.removeEventListener('abort', this.onAbort);
      this.reject(error);
    }
  }

  private settle(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    const excerpt = this.chunks.length === 0 ? '' : Buffer.concat(this.chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
    this.resolve({ statusCode: this.statusCode, excerpt });
  }
}
